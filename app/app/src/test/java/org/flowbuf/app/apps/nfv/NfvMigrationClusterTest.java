/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.nfv;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.app.store.ClusterStorage;
import org.flowbuf.app.store.DistributedIdRecords;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

/**
 * NFV migrations in a cluster: one instance begins a migration, another
 * (the one acting after the first died) finds it in the cluster's storage
 * and completes it; ids never collide between instances.
 */
public class NfvMigrationClusterTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final FlowFilter FLOW = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17).l4DstPort(9000).build();

    private final List<String> calls = new ArrayList<>();

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    boolean pause = method.getName().equals("pause");
                    calls.add(method.getName() + " " + args[1]);
                    return new FlowBufIntent(IntentId.intentId(calls.size()), pause
                            ? FlowBufIntent.Type.PAUSE : FlowBufIntent.Type.RESUME, S1,
                                             (PortNumber) args[1], (FlowFilter) args[2],
                                             BufferId.bufferId("auto-1"),
                                             FlowBufIntent.State.INSTALLED,
                                             NfvMigrationService.OWNER, null);
                });
    }

    private NfvMigrationManager instance(ClusterStorage cluster) {
        return new NfvMigrationManager(intents(), new DistributedIdRecords<>(
                cluster, NfvMigrationManager.MIGRATIONS, NfvMigrationCodec.SERIALIZER));
    }

    @Test
    public void anotherInstanceCompletesAMigrationTheFirstBegan() {
        ClusterStorage cluster = new ClusterStorage();
        NfvMigrationManager first = instance(cluster);
        NfvMigrationManager second = instance(cluster);
        NfvMigration begun = first.begin(S1, PortNumber.portNumber(1), FLOW);
        NfvMigration other = second.begin(S1, PortNumber.portNumber(2), FLOW);
        assertNotEquals(begun.id(), other.id());

        NfvMigration done = second.complete(begun.id(), PortNumber.portNumber(3));
        assertEquals(NfvMigration.State.COMPLETED, done.state());
        assertEquals(List.of("pause 1", "pause 2", "resume 3"), calls);
        assertEquals(NfvMigration.State.COMPLETED, first.migrations().stream()
                .filter(m -> m.id() == begun.id()).findFirst().orElseThrow().state());
        // Released once, cluster-wide: the first instance cannot release it again.
        assertReason(() -> first.abort(begun.id(), PortNumber.portNumber(1)),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(3, calls.size());
    }

    /** An instance's intent service as FlowBufManager's: only the device's master acts. */
    private FlowBufIntentService mastered(FlowBufIntentService intents, String node) {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    if (!node.equals(master)) {
                        throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                                   "this instance is not the master of " + S1
                                                           + "; only the master drives its agent");
                    }
                    return method.invoke(intents, args);
                });
    }

    private String master = "onos-1";

    @Test
    public void onlyTheDevicesMasterActsAndTheNewOneCompletesAfterTheOldDied() {
        ClusterStorage cluster = new ClusterStorage();
        NfvMigrationManager first = new NfvMigrationManager(
                mastered(intents(), "onos-1"), new DistributedIdRecords<>(
                cluster, NfvMigrationManager.MIGRATIONS, NfvMigrationCodec.SERIALIZER));
        NfvMigrationManager second = new NfvMigrationManager(
                mastered(intents(), "onos-2"), new DistributedIdRecords<>(
                cluster, NfvMigrationManager.MIGRATIONS, NfvMigrationCodec.SERIALIZER));
        NfvMigration begun = first.begin(S1, PortNumber.portNumber(1), FLOW);
        // A backup refuses with the Buffer Service's reason and records nothing.
        assertReason(() -> second.begin(S1, PortNumber.portNumber(2), FLOW),
                     FlowBufException.Reason.UNAVAILABLE);
        assertReason(() -> second.complete(begun.id(), PortNumber.portNumber(3)),
                     FlowBufException.Reason.UNAVAILABLE);
        assertEquals(1, second.migrations().size());
        assertEquals(NfvMigration.State.HOLDING,
                     second.migrations().iterator().next().state());
        // The master dies; the new one completes the migration the old began.
        master = "onos-2";
        assertEquals(NfvMigration.State.COMPLETED,
                     second.complete(begun.id(), PortNumber.portNumber(3)).state());
        assertEquals(List.of("pause 1", "resume 3"), calls);
    }

    @Test
    public void aMigrationSurvivesTheClustersSerializer() {
        NfvMigration m = new NfvMigration(4, S1, PortNumber.portNumber(1), FLOW,
                                           BufferId.bufferId("auto-1"), IntentId.intentId(9),
                                           NfvMigration.State.HOLDING, null);
        assertSame(m, roundTrip(m));
        assertSame(m.released(NfvMigration.State.ABORTED, PortNumber.portNumber(2)),
                   roundTrip(m.released(NfvMigration.State.ABORTED, PortNumber.portNumber(2))));
    }

    private static NfvMigration roundTrip(NfvMigration m) {
        return NfvMigrationCodec.SERIALIZER.decode(NfvMigrationCodec.SERIALIZER.encode(m));
    }

    // NfvMigration has no equals: every field, one by one.
    private static void assertSame(NfvMigration expected, NfvMigration actual) {
        assertEquals(expected.id(), actual.id());
        assertEquals(expected.deviceId(), actual.deviceId());
        assertEquals(expected.inPort(), actual.inPort());
        assertEquals(expected.flow(), actual.flow());
        assertEquals(expected.buffer(), actual.buffer());
        assertEquals(expected.pauseIntent(), actual.pauseIntent());
        assertEquals(expected.state(), actual.state());
        assertEquals(expected.releasedTo(), actual.releasedTo());
    }
}
