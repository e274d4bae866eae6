/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.flowbuf.api.congestion.SwitchOver;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.flowbuf.pipeconf.CcP4Names.ALTERNATES;
import static org.flowbuf.pipeconf.CcP4Names.FLOWS;
import static org.flowbuf.pipeconf.CcP4Names.MARKER_SINKS;
import static org.flowbuf.pipeconf.CcP4Names.ORDERED;
import static org.flowbuf.pipeconf.CcP4Names.PATHS;
import static org.flowbuf.pipeconf.CcP4Names.THRESHOLDS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertFalse;
import static org.flowbuf.app.congestion.Thrown.assertThrows;
import static org.junit.Assert.assertTrue;

public class CongestionManagerTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

    private Topo topo;
    private RecordingCcWriter writer;
    private List<SwitchOver> events;
    private CongestionManager service;

    @Before
    public void setUp() {
        // The paper's s1..s7 with a third, longer route s1-s2-s8-s9-s7.
        topo = Topo.paper().cable(1, 2).cable(2, 8).cable(8, 9).cable(9, 7);
        writer = new RecordingCcWriter();
        events = new ArrayList<>();
        service = new CongestionManager(new DefaultApplicationId(1, "test"), hosts(),
                                        new SuurballePathFinder(() -> topo.links),
                                        new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)),
                                        writer, Clock.fixed(NOW, ZoneOffset.UTC), events::add);
    }

    private static CcHosts hosts() {
        return name -> {
            if (name.equals("h1") || name.equals(H1.toString())) {
                return Optional.of(new CcHosts.Endpoint(H1, cp(sw(1), 1)));
            }
            return name.equals("h2") ? Optional.of(new CcHosts.Endpoint(H2, cp(sw(7), 1)))
                    : Optional.empty();
        };
    }

    private static ConnectPoint cp(DeviceId d, long port) {
        return new ConnectPoint(d, PortNumber.portNumber(port));
    }

    private static CcFlowRequest.Builder request() {
        return CcFlowRequest.builder().hosts("h1", "h2").budgetUs(10_000).m(5)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(5000).build());
    }

    private static Set<DeviceId> devices(int... n) {
        Set<DeviceId> s = new java.util.HashSet<>();
        for (int i : n) {
            s.add(sw(i));
        }
        return s;
    }

    @Test
    public void registeringInstallsBothPathsWithThresholds() {
        LatencyCriticalFlow flow = service.register(request().build());
        assertEquals(List.of(sw(1), sw(3), sw(5), sw(7)), devicesOf(flow.primary()));
        assertEquals(List.of(sw(1), sw(4), sw(6), sw(7)), devicesOf(flow.backup().orElseThrow()));
        assertEquals(devices(1, 3, 4, 5, 6, 7), writer.entries.keySet());
        // The source: the flow, both slots, an alternate for the backup's, thresholds.
        assertEquals(1, writer.count(sw(1), FLOWS));
        assertEquals(2, writer.count(sw(1), PATHS));
        assertEquals(1, writer.count(sw(1), ALTERNATES));
        assertEquals(1, writer.count(sw(1), THRESHOLDS));
        for (int s : new int[]{3, 4, 5, 6, 7}) {
            assertEquals(1, writer.count(sw(s), PATHS));
            assertEquals(0, writer.count(sw(s), ALTERNATES));
            assertEquals(1, writer.count(sw(s), THRESHOLDS));
            // One registration: every switch starts the flow's cells for the same generation.
            assertEquals(writer.generations(sw(1)), writer.generations(sw(s)));
        }
        assertEquals(1, writer.generations(sw(1)).size());
        assertEquals(sw(1), writer.writes.get(writer.writes.size() - 1));  // the source last
        assertEquals(50, flow.thresholds().get(sw(3)).queueUs());
        assertEquals(200, flow.thresholds().get(sw(3)).procUs());
    }

    @Test
    public void noccInstallsOnePathAndNoThresholds() {
        LatencyCriticalFlow flow = service.register(request().mode(CongestionMode.NOCC).build());
        assertFalse(flow.backup().isPresent());
        assertEquals(devices(1, 3, 5, 7), writer.entries.keySet());
        for (int s : new int[]{1, 3, 5, 7}) {
            assertEquals(0, writer.count(sw(s), THRESHOLDS));
            assertEquals(0, writer.count(sw(s), ALTERNATES));
        }
    }

    @Test
    public void noccBetweenTwoHostsOfOneSwitchWritesTheSwitchsPortWithoutAskingForAPath() {
        // Found live under ONOS: the hosts' switch ids are two equal DeviceId
        // objects there, the planner compared them with ==, asked ONOS's
        // PathService for a path from s1 to s1 and got its "List of path
        // links cannot be empty" (400).
        DeviceId at = DeviceId.deviceId("device:s1");
        DeviceId same = DeviceId.deviceId("device:s1");
        assertNotSame(at, same);
        CcHosts hosts = name -> Optional.of(new CcHosts.Endpoint(
                name.equals("h1") ? H1 : H2, new ConnectPoint(name.equals("h1") ? at : same,
                                                              PortNumber.portNumber(
                                                                      name.equals("h1") ? 1 : 2))));
        // ONOS's PathService from a switch to itself.
        DisjointPathFinder onos = (DisjointPathFinder) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{DisjointPathFinder.class},
                (proxy, method, args) -> {
                    throw new IllegalArgumentException("List of path links cannot be empty");
                });
        CongestionManager manager = new CongestionManager(
                new DefaultApplicationId(1, "test"), hosts, onos,
                new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), writer,
                Clock.fixed(NOW, ZoneOffset.UTC), events::add);
        LatencyCriticalFlow flow = manager.register(request().mode(CongestionMode.NOCC).build());
        assertEquals(List.of(at), devicesOf(flow.primary()));
        assertEquals(PortNumber.portNumber(2), flow.primary().first().outPort());
        assertEquals(Set.of(at), writer.entries.keySet());
    }

    @Test
    public void orderedSwitchoverWithoutBufferServiceIsRefusedAndNothingIsWritten() {
        FlowBufException e = assertThrows(FlowBufException.class, () -> service.register(
                request().orderedSwitchover(true).build()));
        assertEquals(FlowBufException.Reason.INVALID, e.reason());
        assertTrue(e.getMessage(), e.getMessage().contains("orderedSwitchover"));
        assertTrue(writer.writes.isEmpty());
    }

    @Test
    public void anOrderedFlowSendsMarkersFromItsSourceIntoItsMergeSwitchsTrigger() {
        List<String> calls = new ArrayList<>();
        BufferService buffers = (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    switch (method.getName()) {
                        case "getDevices":
                            return Set.of(sw(7));
                        case "getBuffer":
                            return Optional.of(new Buffer(sw(7), (BufferId) args[1], "o",
                                                          BufferSpec.defaults(),
                                                          VportId.vportId("vp100"),
                                                          VportMode.RX, 0));
                        case "getVports":
                            return List.of(new Vport(VportId.vportId("vp100"), 100, null,
                                                     VportMode.RX));
                        default:
                            return null;
                    }
                });
        FlowBufIntentService intents = (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    calls.add(method.getName() + " " + args[0] + "/" + args[1]);
                    return method.getName().equals("pause")
                            ? new FlowBufIntent(IntentId.intentId(1), FlowBufIntent.Type.PAUSE,
                                                (DeviceId) args[0], (PortNumber) args[1],
                                                (FlowFilter) args[2], BufferId.bufferId("b"),
                                                FlowBufIntent.State.INSTALLED, "o", null)
                            : null;
                });
        CongestionManager ordered = new CongestionManager(
                new DefaultApplicationId(1, "test"), hosts(), new SuurballePathFinder(() -> topo.links),
                new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), writer,
                Clock.fixed(NOW, ZoneOffset.UTC), events::add, null, buffers, intents,
                () -> topo.links, () -> 500);
        try {
            LatencyCriticalFlow flow = ordered.register(request().orderedSwitchover(true).build());
            assertEquals(1, writer.count(sw(1), ORDERED));
            assertEquals(1, writer.count(sw(7), MARKER_SINKS));
            assertEquals(0, writer.count(sw(7), ORDERED));
            // The backup s1-s4-s6-s7 enters s7 by the port of the s6-s7 link.
            long backupIn = topo.links.stream().filter(l -> l.src().deviceId().equals(sw(6))
                    && l.dst().deviceId().equals(sw(7))).findFirst().orElseThrow().dst().port()
                    .toLong();
            assertTrue(calls.toString(), calls.contains("pause " + sw(7) + "/" + backupIn));
            assertEquals(new OrderedSwitchover(sw(7), 0, 0, true), flow.ordered().orElseThrow());
            ordered.remove(flow.id());
            assertEquals(0, writer.count(sw(1), ORDERED));
            assertEquals(0, writer.count(sw(7), MARKER_SINKS));
            assertTrue(calls.toString(), calls.stream().anyMatch(c -> c.startsWith("withdraw")));
        } finally {
            ordered.shutdown();
        }
    }

    @Test
    public void unknownHostsAreRefusedAndNothingIsWritten() {
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> service.register(request().hosts("h1", "h9")
                                                                         .build()));
        assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
        assertTrue(e.getMessage(), e.getMessage().contains("h9"));
        assertTrue(writer.writes.isEmpty());
    }

    @Test
    public void noDisjointPathIsRefusedAndNothingIsWritten() {
        topo.cut(1, 4);
        topo.cut(1, 2);
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> service.register(request().build()));
        assertEquals(FlowBufException.Reason.INVALID, e.reason());
        assertTrue(e.getMessage(), e.getMessage().contains("no disjoint"));
        assertTrue(writer.writes.isEmpty());
        assertTrue(service.flows().isEmpty());
    }

    @Test
    public void aBudgetUnderTheIdleDelayIsRefused() {
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> service.register(request().budgetUs(100).build()));
        assertEquals(FlowBufException.Reason.INVALID, e.reason());
        assertTrue(writer.writes.isEmpty());
    }

    @Test
    public void outOfRangeFieldsAreRefused() {
        for (CcFlowRequest.Builder bad : List.of(request().m(0), request().m(1L << 32),
                                                 request().budgetUs(0),
                                                 request().budgetUs(1L << 32),
                                                 request().factor(0.5), request().factor(1e6),
                                                 request().hosts("h1", "h1"),
                                                 request().filter(FlowFilter.builder()
                                                                          .ipProto(17).build()))) {
            FlowBufException e = assertThrows(FlowBufException.class, bad::build);
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
        }
    }

    @Test
    public void aRefusingSwitchLeavesNothingInstalled() {
        writer.refuse.add(sw(1));  // the source, written last
        assertThrows(FlowBufException.class, () -> service.register(request().build()));
        assertEquals(Map.of(), writer.entries);
        assertTrue(service.flows().isEmpty());
    }

    @Test
    public void aSwitchOverPromotesTheBackupAndInstallsANewOne() {
        LatencyCriticalFlow flow = service.register(request().build());
        topo.cut(3, 5);  // the old primary is gone: the new backup is s1-s2-s8-s9-s7
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        LatencyCriticalFlow now = service.flow(flow.id()).orElseThrow();
        assertEquals(List.of(sw(1), sw(4), sw(6), sw(7)), devicesOf(now.primary()));
        assertEquals(List.of(sw(1), sw(2), sw(8), sw(9), sw(7)),
                     devicesOf(now.backup().orElseThrow()));
        assertEquals(devices(1, 2, 4, 6, 7, 8, 9), writer.entries.keySet());  // s3, s5 cleared
        assertEquals(2, writer.count(sw(1), PATHS));
        assertEquals(1, writer.count(sw(1), ALTERNATES));
        SwitchOver record = now.lastSwitchOver().orElseThrow();
        assertEquals(sw(1), record.device());
        assertEquals(900, record.queueUs());
        assertEquals(NOW, record.time());
        assertTrue(record.newBackup());
        assertEquals(List.of(record), events);
    }

    @Test
    public void aSwitchOverIsTimedWhenItsDigestCameNotWhenTheNewBackupWasWritten() {
        Instant[] now = {NOW};
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        service = new CongestionManager(new DefaultApplicationId(1, "test"), hosts(),
                                        new SuurballePathFinder(() -> topo.links),
                                        new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)),
                                        writer, clock, events::add);
        LatencyCriticalFlow flow = service.register(request().build());
        writer.onWrite = () -> now[0] = now[0].plusMillis(10);  // a slow switch
        Instant digestCame = now[0];
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        assertTrue(now[0].isAfter(digestCame));  // the new backup took time to write
        assertEquals(digestCame, events.get(0).time());
    }

    @Test
    public void aSwitchOverWithoutANewBackupKeepsTheFlowOnItsNewPrimary() {
        LatencyCriticalFlow flow = service.register(request().build());
        topo.cut(3, 5);
        topo.cut(2, 8);
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        LatencyCriticalFlow now = service.flow(flow.id()).orElseThrow();
        assertFalse(now.backup().isPresent());
        assertEquals(devices(1, 4, 6, 7), writer.entries.keySet());
        assertEquals(1, writer.count(sw(1), PATHS));
        assertEquals(0, writer.count(sw(1), ALTERNATES));
        assertFalse(now.lastSwitchOver().orElseThrow().newBackup());
    }

    @Test
    public void twoSwitchOversComeBackToTheFirstPath() {
        LatencyCriticalFlow flow = service.register(request().build());
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 0, 800, 30));
        LatencyCriticalFlow now = service.flow(flow.id()).orElseThrow();
        assertEquals(List.of(sw(1), sw(3), sw(5), sw(7)), devicesOf(now.primary()));
        assertEquals(List.of(sw(1), sw(4), sw(6), sw(7)), devicesOf(now.backup().orElseThrow()));
        assertEquals(2, now.switchOvers().size());
    }

    @Test
    public void digestsThatChangeNothingAreIgnored() {
        LatencyCriticalFlow flow = service.register(request().build());
        int before = writer.writes.size();
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 0, 1, 1));   // its slot already
        service.switchedOver(sw(3), new CcDigest(flow.index(), 3, 1, 1, 1));   // not the source
        service.switchedOver(sw(1), new CcDigest(flow.index() + 7, 1, 1, 1, 1));  // no such flow
        assertEquals(before, writer.writes.size());
        assertTrue(service.flow(flow.id()).orElseThrow().switchOvers().isEmpty());
    }

    @Test
    public void removingClearsEverySwitchAndFreesTheIndex() {
        LatencyCriticalFlow flow = service.register(request().build());
        Set<Long> generation = writer.generations(sw(1));
        service.remove(flow.id());
        assertEquals(Map.of(), writer.entries);
        assertThrows(FlowBufException.class, () -> service.remove(flow.id()));
        assertEquals(flow.index(), service.register(request().build()).index());
        assertNotEquals("a reused index has a generation of its own", generation,
                        writer.generations(sw(1)));
    }

    @Test
    public void aRestartedSwitchGetsItsFlowsBackTheSourceInSlotZero() {
        LatencyCriticalFlow flow = service.register(request().build());
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        Map<String, ?> s4 = Map.copyOf(writer.entries.get(sw(4)));
        writer.entries.remove(sw(1));  // s1 restarted: no entries, registers zero
        Set<Long> generation = writer.generations(sw(4));
        writer.entries.remove(sw(4));
        assertEquals(1, service.restore(sw(1)));
        assertEquals(1, service.restore(sw(4)));
        assertEquals(0, service.restore(sw(8)));
        assertEquals(2, writer.count(sw(1), PATHS));
        assertEquals(1, writer.count(sw(1), ALTERNATES));
        // The same registration: its cells go on (from zero, as the switch restarted).
        assertEquals(generation, writer.generations(sw(1)));
        assertEquals(s4.keySet(), writer.entries.get(sw(4)).keySet());
        // The primary (s4-s6) is in slot 0 now: a second switch-over reports slot 1.
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        assertEquals(2, service.flow(flow.id()).orElseThrow().switchOvers().size());
    }

    @Test
    public void aSwitchThatKeptItsEntriesIsLeftAsItIs() {
        LatencyCriticalFlow flow = service.register(request().build());
        int writes = writer.writes.size();
        writer.refuse.add(sw(1));  // what ALREADY_EXISTS looks like to the service
        assertEquals(0, service.restore(sw(1)));
        writer.refuse.clear();
        assertEquals(writes, writer.writes.size());
        service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        assertEquals(1, service.flow(flow.id()).orElseThrow().switchOvers().size());
    }

    @Test
    public void twoFlowsGetTwoIndexes() {
        int a = service.register(request().build()).index();
        int b = service.register(request().hosts("h2", "h1").filter(
                FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.1/32")).build())
                                         .build()).index();
        assertEquals(List.of(0, 1), List.of(a, b));
    }

    @Test
    public void aSecondFlowWithTheSame5TupleIsAConflict() {
        service.register(request().build());
        int before = writer.writes.size();
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> service.register(request().m(3).build()));
        assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
        assertEquals(before, writer.writes.size());
    }

    private static List<DeviceId> devicesOf(org.flowbuf.api.congestion.CcPath path) {
        List<DeviceId> d = new ArrayList<>();
        path.hops().forEach(h -> d.add(h.device()));
        return d;
    }
}
