/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import com.google.common.util.concurrent.MoreExecutors;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.app.store.ClusterStorage;
import org.flowbuf.app.store.DistributedIdRecords;
import org.flowbuf.app.store.IdRecords;
import org.flowbuf.app.store.InMemoryIdRecords;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * FMM's sessions in a store: what one instance records another reads back
 * (ONOS's distributed map, through the serializer), the same in memory for
 * the embedded host, and what a cluster-wide store refuses: a second open
 * session of a UE's downlink, an anchor group another instance's session
 * holds, a step on a session whose buffers another instance drives.
 */
public class FmmSessionStoreTest {

    private static final FlowFilter DOWNLINK = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build();
    private static final FlowFilter OTHER_UE = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.11/32")).build();
    private static final FlowFilter SIGNAL = FlowFilter.builder().ipProto(17).l4DstPort(9).build();
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    private int nextIntent;

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static FmmPlan plan(FlowFilter downlink) {
        return new FmmPlan(downlink, cp("device:sa/1"), List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp("device:s2/1"), cp("device:s2/2"))),
                           S1, 2048);
    }

    // The plan with every optional part: the UE's signal and reports.
    private static FmmPlan planWithReports() {
        FmmPlan p = plan(DOWNLINK);
        return new FmmPlan(p.downlink(), p.anchorIn(), p.cells(), S1, p.windowPackets(),
                           Optional.of(SIGNAL), true);
    }

    private static FmmSession session(long id, FmmSession.State state) {
        return new FmmSession(id, planWithReports(), state, S1, S2,
                              Map.of(S1, BufferId.bufferId("fmm-" + id + "-device_s1"),
                                     S2, BufferId.bufferId("fmm-" + id + "-device_s2")),
                              FmmManager.FIRST_GROUP, new FmmSession.Counters(3, 1, 40, 900, 2, 1),
                              state == FmmSession.State.FAILED ? "close: s2 gone" : null);
    }

    private static IdRecords<FmmSession> distributed(ClusterStorage cluster) {
        return new DistributedIdRecords<>(cluster, FmmManager.SESSIONS,
                                          FmmSessionSerializer.SERIALIZER);
    }

    private FmmManager instance(IdRecords<FmmSession> store) {
        return new FmmManager(RecordingIntents.of(call -> { }, () -> ++nextIntent,
                                                  FmmService.OWNER, DOWNLINK),
                              buffers(), NoWrites.RULES, NoWrites.GROUPS,
                              MoreExecutors.newDirectExecutorService(), store);
    }

    @Test
    public void aSessionSurvivesTheSerializer() {
        FmmSession s = FmmSessionSerializer.SERIALIZER.decode(
                FmmSessionSerializer.SERIALIZER.encode(session(7, FmmSession.State.FAILED)));
        FmmSession expected = session(7, FmmSession.State.FAILED);
        assertEquals(7, s.id());
        assertEquals(expected.plan(), s.plan());
        assertEquals(FmmSession.State.FAILED, s.state());
        assertEquals(Optional.of(S2), s.target());
        assertEquals(expected.buffers(), s.buffers());
        assertEquals(FmmManager.FIRST_GROUP, s.multicastGroup());
        assertEquals(expected.counters().toString(), s.counters().toString());
        assertEquals(Optional.of("close: s2 gone"), s.failure());
    }

    @Test
    public void anotherInstanceSeesTheSessionsAndTakesNoIdTwice() {
        ClusterStorage cluster = new ClusterStorage();
        IdRecords<FmmSession> first = distributed(cluster);
        IdRecords<FmmSession> second = distributed(cluster);
        long a = first.nextId();
        long b = second.nextId();
        assertNotEquals(a, b);
        first.put(a, session(a, FmmSession.State.DETACHED));
        assertEquals(FmmSession.State.DETACHED, second.get(a).orElseThrow().state());
        assertEquals(1, second.values().size());
        second.remove(a);
        assertTrue(first.get(a).isEmpty());
    }

    @Test
    public void inMemoryTheManagerKeepsItsSessionsAsInTheCluster() {
        IdRecords<FmmSession> store = new InMemoryIdRecords<>();
        FmmManager fmm = instance(store);
        FmmSession s = fmm.open(plan(DOWNLINK));
        assertEquals(s.state(), store.get(s.id()).orElseThrow().state());
        fmm.handoff(s.id(), S2);
        assertEquals(FmmSession.State.DETACHED, store.get(s.id()).orElseThrow().state());
        fmm.close(s.id());
        assertEquals(FmmSession.State.CLOSED, store.get(s.id()).orElseThrow().state());
    }

    @Test
    public void everyInstanceListsTheSessionsAndRefusesASecondOneOfTheDownlink() {
        ClusterStorage cluster = new ClusterStorage();
        FmmManager first = instance(distributed(cluster));
        FmmManager second = instance(distributed(cluster));
        FmmSession s = first.open(plan(DOWNLINK));
        assertEquals(List.of(s.id()), second.sessions().stream().map(FmmSession::id)
                .collect(Collectors.toList()));
        assertEquals(FmmSession.State.ATTACHED, second.session(s.id()).orElseThrow().state());
        assertReason(() -> second.open(plan(DOWNLINK)), FlowBufException.Reason.CONFLICT);
        // Another UE's session on the same anchor takes another group.
        FmmSession other = second.open(plan(OTHER_UE));
        assertNotEquals(s.id(), other.id());
        assertNotEquals(s.multicastGroup(), other.multicastGroup());
        // Its buffers and intents are driven by the first instance: the
        // second refuses its steps rather than act without them.
        assertReason(() -> second.handoff(s.id(), S2), FlowBufException.Reason.UNAVAILABLE);
        assertEquals(FmmSession.State.DETACHED, first.handoff(s.id(), S2).state());
        assertEquals(FmmSession.State.DETACHED, second.session(s.id()).orElseThrow().state());
        assertEquals(FmmSession.State.CLOSED, first.close(s.id()).state());
        assertEquals(FmmSession.State.CLOSED, second.session(s.id()).orElseThrow().state());
    }

    private static BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                FmmSessionStoreTest.class.getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getStatistics":
                            return Optional.empty();
                        case "disarm":
                            return Disarmed.stillArmed();
                        case "purgeToSyncPoint":
                            return Optional.of(0L);
                        case "getDevices":
                            return Set.of(S1, S2);
                        default:
                            return null;
                    }
                });
    }

}
