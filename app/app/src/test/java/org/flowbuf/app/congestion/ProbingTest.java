/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.ProbeStats;
import org.flowbuf.api.congestion.SwitchOver;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.flowbuf.app.congestion.Thrown.assertThrows;
import static org.flowbuf.app.congestion.Topo.sw;
import static org.flowbuf.pipeconf.CcP4Names.ALTERNATES;
import static org.flowbuf.pipeconf.CcP4Names.PATHS;
import static org.flowbuf.pipeconf.CcP4Names.THRESHOLDS;
import static org.flowbuf.pipeconf.FlowBufP4Names.ACL;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * PROBING flows through the manager and the probe scheduler, with a timer
 * the test ticks, a clock it moves and a packet-out it records: the far end
 * "punts" a probe back when the test hands its frame to packetIn.
 */
public class ProbingTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");
    private static final long MS = 1_000_000;

    private Topo topo;
    private RecordingCcWriter writer;
    private final List<SwitchOver> events = new ArrayList<>();
    private final List<Sent> sent = new ArrayList<>();
    private final List<Runnable> ticks = new ArrayList<>();
    private long nowNs;
    private CongestionManager service;

    /** A packet-out the scheduler made. */
    private static final class Sent {
        final DeviceId device;
        final PortNumber port;
        final byte[] frame;

        Sent(DeviceId device, PortNumber port, byte[] frame) {
            this.device = device;
            this.port = port;
            this.frame = frame;
        }
    }

    @Before
    public void setUp() {
        topo = Topo.paper();  // s1's port 10 towards s3, 11 towards s4
        writer = new RecordingCcWriter();
        CcHosts hosts = name -> name.equals("h1")
                ? Optional.of(new CcHosts.Endpoint(H1, new ConnectPoint(sw(1), port(1))))
                : name.equals("h2")
                ? Optional.of(new CcHosts.Endpoint(H2, new ConnectPoint(sw(7), port(1))))
                : Optional.empty();
        ProbeTimer timer = new ProbeTimer() {
            @Override
            public Runnable every(long periodMs, Runnable task) {
                ticks.add(task);
                return () -> ticks.remove(task);
            }

            @Override
            public void execute(Runnable task) {
                task.run();
            }
        };
        ProbeScheduler probes = new ProbeScheduler(
                (d, p, f) -> sent.add(new Sent(d, p, f)), timer, () -> nowNs);
        service = new CongestionManager(new DefaultApplicationId(1, "test"), hosts,
                                        new SuurballePathFinder(() -> topo.links),
                                        new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)),
                                        writer, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
                                        events::add, probes);
    }

    private static PortNumber port(long n) {
        return PortNumber.portNumber(n);
    }

    private static CcFlowRequest.Builder probing() {
        return CcFlowRequest.builder().hosts("h1", "h2").budgetUs(20_000)
                .mode(CongestionMode.PROBING).probeIntervalMs(1000L)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(5000).build());
    }

    private void tick() {
        List.copyOf(ticks).forEach(Runnable::run);
    }

    private Sent lastSent() {
        return sent.get(sent.size() - 1);
    }

    private static List<DeviceId> devicesOf(CcPath p) {
        return p.hops().stream().map(h -> h.device()).collect(Collectors.toList());
    }

    private LatencyCriticalFlow now(LatencyCriticalFlow f) {
        return service.flow(f.id()).orElseThrow();
    }

    @Test
    public void aProbingFlowHasBothPathsNoThresholdsNoAlternateAndAPuntAtTheFarEnd() {
        LatencyCriticalFlow flow = service.register(probing().build());
        assertEquals(List.of(sw(1), sw(3), sw(5), sw(7)), devicesOf(flow.primary()));
        assertTrue(flow.backup().isPresent());
        assertTrue(flow.thresholds().isEmpty());
        assertEquals(2, writer.count(sw(1), PATHS));
        assertEquals(0, writer.count(sw(1), ALTERNATES));  // only the controller moves it
        for (int s : new int[]{1, 3, 4, 5, 6, 7}) {
            assertEquals(0, writer.count(sw(s), THRESHOLDS));
            assertEquals(s == 7 ? 1 : 0, writer.count(sw(s), ACL));
        }
        service.remove(flow.id());
        assertTrue(writer.entries.isEmpty());
        assertTrue(ticks.isEmpty());  // no longer probed
    }

    @Test
    public void probesInTimeMoveNothing() {
        LatencyCriticalFlow flow = service.register(probing().build());
        for (int i = 0; i < 3; i++) {
            tick();
            assertEquals(sw(1), lastSent().device);
            assertEquals(port(10), lastSent().port);  // out of the primary's first hop
            nowNs += 5 * MS;
            assertTrue(service.probePacketIn(sw(7), lastSent().frame));
            nowNs += 995 * MS;
        }
        ProbeStats s = now(flow).probes().orElseThrow();
        assertEquals(3, s.sent());
        assertEquals(0, s.lost() + s.late());
        assertEquals(5000, s.lastDelayUs().getAsLong());
        assertEquals(1000, s.intervalMs());
        assertTrue(now(flow).switchOvers().isEmpty());
        assertTrue(events.isEmpty());
    }

    @Test
    public void aMissingProbeMovesTheFlowToItsBackupAndTheNextProbeFollows() {
        LatencyCriticalFlow flow = service.register(probing().build());
        List<String> before = writer.paths(sw(1), PATHS);
        tick();  // a probe leaves by s3 ...
        nowNs += 1000 * MS;
        tick();  // ... and is not back: lost; the flow moves, a new probe goes by s4
        LatencyCriticalFlow moved = now(flow);
        assertEquals(List.of(sw(1), sw(4), sw(6), sw(7)), devicesOf(moved.primary()));
        assertEquals(List.of(sw(1), sw(3), sw(5), sw(7)),
                     devicesOf(moved.backup().orElseThrow()));
        SwitchOver record = moved.lastSwitchOver().orElseThrow();
        assertEquals(SwitchOver.Cause.PROBE_MISSING, record.cause());
        assertEquals(sw(1), record.device());
        assertTrue(record.newBackup());
        assertEquals(List.of(record), events);
        assertEquals(1, moved.probes().orElseThrow().lost());
        // The source switch's slots swapped their next hops; no alternate.
        List<String> after = writer.paths(sw(1), PATHS);
        assertEquals(2, after.size());
        assertFalse(before.equals(after));
        assertEquals(0, writer.count(sw(1), ALTERNATES));
        assertEquals(port(11), lastSent().port);
        assertEquals(2, sent.size());
    }

    @Test
    public void aLateProbeMovesTheFlowAndAnotherLateOneMovesItBack() {
        LatencyCriticalFlow flow = service.register(probing().build());
        tick();
        nowNs += 25 * MS;  // over the 20 ms budget
        assertTrue(service.probePacketIn(sw(7), lastSent().frame));
        LatencyCriticalFlow moved = now(flow);
        assertEquals(sw(4), moved.primary().hops().get(1).device());
        SwitchOver record = moved.lastSwitchOver().orElseThrow();
        assertEquals(SwitchOver.Cause.PROBE_LATE, record.cause());
        assertEquals(25_000, record.queueUs());
        nowNs += 975 * MS;
        tick();
        assertEquals(port(11), lastSent().port);
        nowNs += 30 * MS;
        service.probePacketIn(sw(7), lastSent().frame);
        assertEquals(sw(3), now(flow).primary().hops().get(1).device());
        assertEquals(2, now(flow).switchOvers().size());
        assertEquals(2, now(flow).probes().orElseThrow().late());
    }

    @Test
    public void aLateProbeSentBeforeAMoveIsNotCountedAgainstTheNewPath() {
        LatencyCriticalFlow flow = service.register(probing().build());
        tick();
        byte[] first = lastSent().frame;
        nowNs += 1000 * MS;
        tick();  // lost: moved
        nowNs += 100 * MS;
        service.probePacketIn(sw(7), first);  // the lost one, very late
        assertEquals(1, now(flow).switchOvers().size());
        assertEquals(0, now(flow).probes().orElseThrow().late());
    }

    @Test
    public void framesThatAreNotProbesAreLeftToOthers() {
        service.register(probing().build());
        assertFalse(service.probePacketIn(sw(7), new byte[64]));
    }

    @Test
    public void probingOptionsOutOfRangeAreRefused() {
        for (CcFlowRequest.Builder bad : List.of(probing().probeIntervalMs(99L),
                                                 probing().probeIntervalMs(60_001L),
                                                 probing().mode(CongestionMode.DATAPLANE),
                                                 probing().mode(CongestionMode.NOCC))) {
            FlowBufException e = assertThrows(FlowBufException.class, bad::build);
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("probeIntervalMs"));
        }
        assertEquals(CcFlowRequest.DEFAULT_PROBE_INTERVAL_MS,
                     probing().probeIntervalMs(null).build().probeIntervalMs());
    }

    @Test
    public void withoutPacketOutProbingIsRefusedAndNothingIsWritten() {
        CongestionManager plain = new CongestionManager(
                new DefaultApplicationId(1, "test"), n -> Optional.empty(),
                new SuurballePathFinder(() -> topo.links),
                new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), writer,
                Clock.systemUTC(), events::add);
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> plain.register(probing().build()));
        assertEquals(FlowBufException.Reason.INVALID, e.reason());
        assertTrue(writer.writes.isEmpty());
    }
}
