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
import org.flowbuf.app.history.Retention;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The migration's calls on the intent API, in order, and its refusals.
 */
public class NfvMigrationManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final FlowFilter FLOW = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).build();

    private final List<String> calls = new ArrayList<>();
    private final NfvMigrationManager manager = new NfvMigrationManager(intents());

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    calls.add(method.getName() + " " + args[1] + " " + args[3] + " " + args[4]);
                    FlowBufIntent.Type type = method.getName().equals("pause")
                            ? FlowBufIntent.Type.PAUSE : FlowBufIntent.Type.RESUME;
                    return new FlowBufIntent(IntentId.intentId(calls.size()), type, S1,
                                             (PortNumber) args[1], FLOW,
                                             BufferId.bufferId("auto-1"),
                                             FlowBufIntent.State.INSTALLED,
                                             NfvMigrationService.OWNER, null);
                });
    }

    @Test
    public void aMigrationHoldsTheFlowThenReleasesItIntoTheNewInstance() {
        NfvMigration m = manager.begin(S1, PortNumber.portNumber(1), FLOW);
        assertEquals(NfvMigration.State.HOLDING, m.state());
        assertEquals(BufferId.bufferId("auto-1"), m.buffer());
        NfvMigration done = manager.complete(m.id(), PortNumber.portNumber(3));
        assertEquals(NfvMigration.State.COMPLETED, done.state());
        assertEquals(Optional.of(PortNumber.portNumber(3)), done.releasedTo());
        assertEquals(List.of("pause 1 Optional.empty " + NfvMigrationService.OWNER,
                             "resume 3 Optional[auto-1] " + NfvMigrationService.OWNER), calls);
    }

    @Test
    public void anAbortReleasesTowardsTheOldInstanceAndAReleaseHappensOnce() {
        NfvMigration m = manager.begin(S1, PortNumber.portNumber(1), FLOW);
        assertEquals(NfvMigration.State.ABORTED,
                     manager.abort(m.id(), PortNumber.portNumber(2)).state());
        try {
            manager.complete(m.id(), PortNumber.portNumber(3));
            fail("a released migration was released again");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
        }
        try {
            manager.complete(99, PortNumber.portNumber(3));
            fail("an unknown migration was completed");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
        }
        assertEquals(2, calls.size());
        assertEquals(1, manager.migrations().size());
    }

    @Test
    public void onlyTheLatestFinishedMigrationsAreListedAndOneUnderWayIsKept() {
        NfvMigration first = manager.begin(S1, PortNumber.portNumber(1), FLOW);
        manager.abort(first.id(), PortNumber.portNumber(2));
        NfvMigration holding = manager.begin(S1, PortNumber.portNumber(9),
                                             FlowFilter.builder().ipProto(17).build());
        for (int i = 1; i <= Retention.DEFAULT_KEPT; i++) {
            calls.clear();
            NfvMigration m = manager.begin(S1, PortNumber.portNumber(1), FLOW);
            manager.complete(m.id(), PortNumber.portNumber(3));
        }
        // The latest finished ones and the one still holding.
        assertEquals(Retention.DEFAULT_KEPT + 1, manager.migrations().size());
        assertTrue(manager.migrations().stream().noneMatch(m -> m.id() == first.id()));
        assertEquals(NfvMigration.State.COMPLETED,
                     manager.complete(holding.id(), PortNumber.portNumber(3)).state());
    }
}
