/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.app.upf.InMemoryUpfStore;
import org.flowbuf.app.upf.UpfSessionRecord;
import org.flowbuf.app.upf.UpfWrite;
import org.flowbuf.app.upf.UpfWriter;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The placement's decisions and the order of its southbound steps, against
 * recording fakes: a promotion holds, writes one Write, sends the marker and
 * releases on it; eviction takes the coldest; idle UEs are demoted after
 * whole windows under the rate; bad settings change nothing.
 */
public class PlacementManagerTest {

    private static final DeviceId FAST = DeviceId.deviceId("device:s1");
    private static final DeviceId SLOW = DeviceId.deviceId("device:s2");
    private static final long HEAVY_BPS = 1_000_000;

    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, Long> counters = new HashMap<>();
    private final InMemoryUpfStore store = new InMemoryUpfStore();
    private final Map<String, Long> held = new HashMap<>();
    private volatile long now;
    /** How long the fake switch takes to acknowledge a Write (ns on the test's clock). */
    private long writeNanos;
    /** The wall clock reports arrive on: a report arrives when it is made, unless a test says. */
    private java.time.Clock wall = java.time.Clock.fixed(Instant.EPOCH, java.time.ZoneOffset.UTC);
    private int intentIds;
    /** When set, each pause counts down and waits for it (two promotions at once). */
    private volatile CountDownLatch pauseGate;
    /** When set, each Write counts down and waits for it (two Writes at once). */
    private volatile CountDownLatch writeGate;
    private ScheduledThreadPoolExecutor timer;
    private PlacementManager.Deps deps;
    private PlacementManager manager;

    /** A timer whose windows run when the test calls tick(), on its clock. */
    private static ScheduledThreadPoolExecutor manualWindows() {
        return new ScheduledThreadPoolExecutor(1) {
            @Override
            public java.util.concurrent.ScheduledFuture<?> scheduleWithFixedDelay(
                    Runnable command, long initialDelay, long delay,
                    java.util.concurrent.TimeUnit unit) {
                return super.schedule(() -> { }, 1, java.util.concurrent.TimeUnit.HOURS);
            }
        };
    }

    @Before
    public void setUp() {
        timer = manualWindows();
        UpfWriter writer = new UpfWriter() {
            @Override
            public void write(DeviceId deviceId, UpfWrite write) {
                CountDownLatch gate = writeGate;
                if (gate != null) {
                    gate.countDown();
                    try {
                        log.add("both writing: " + gate.await(5, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                log.add("write " + deviceId + " -" + write.removes().size() + " +"
                                + write.inserts().size());
                now += writeNanos;
            }

            @Override
            public void rewrite(DeviceId deviceId, UpfWrite write) {
                fail("no rewrite expected");
            }
        };
        FastPath fastPath = new FastPath() {
            @Override
            public void setSlowPort(DeviceId device, Optional<PortNumber> slowPort) {
                log.add("slow port " + device + " " + slowPort.map(Object::toString).orElse("none"));
            }

            @Override
            public Map<Integer, Long> sessionBytes(DeviceId device, Collection<Integer> cells) {
                Map<Integer, Long> read = new HashMap<>();
                cells.forEach(c -> read.put(c, counters.getOrDefault(c, 0L)));
                return read;
            }
        };
        deps = new PlacementManager.Deps(
                new DefaultApplicationId(1, "org.flowbuf.app"), store, writer, fastPath,
                (device, port, frame) -> log.add("marker " + device + "/" + port + " to "
                        + EndMarkers.ueOf(tunnelled(frame)).orElseThrow()),
                intents(), buffers(), d -> d.equals(FAST) || d.equals(SLOW), () -> HEAVY_BPS)
                .withClock(() -> now).withWallClock(wall);
        manager = new PlacementManager(deps, timer);
        manager.configure(settings(2, 1000, 100));
        log.clear();
    }

    @After
    public void tearDown() {
        manager.close();
    }

    private static HybridSettings settings(int budget, long demoteMs, long windowMs) {
        return HybridSettings.of(FAST, SLOW, 3, 2, budget, demoteMs, windowMs);
    }

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("pause")) {
                        CountDownLatch gate = pauseGate;
                        if (gate != null) {
                            gate.countDown();
                            log.add("both held: " + gate.await(5, TimeUnit.SECONDS));
                        }
                        int id;
                        synchronized (this) {
                            id = ++intentIds;
                        }
                        log.add("pause " + args[0] + "/" + args[1] + " " + args[2]);
                        return new FlowBufIntent(IntentId.intentId(id), FlowBufIntent.Type.PAUSE,
                                                 (DeviceId) args[0], (PortNumber) args[1],
                                                 (FlowFilter) args[2], BufferId.bufferId("auto-" + id),
                                                 FlowBufIntent.State.INSTALLED, (String) args[4], null);
                    }
                    if (method.getName().equals("withdraw")) {
                        IntentId id = (IntentId) args[0];
                        if (held.getOrDefault("auto-" + id.id(), 0L) > 0) {
                            throw FlowBufException.conflict("buffer holds packets");
                        }
                        log.add("withdraw " + id.id());
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "moveBuffer":
                            log.add("move " + args[1] + " " + args[3]);
                            return null;
                        case "removeBuffer":
                            log.add("remove " + args[1]);
                            return null;
                        case "getBuffer":
                            return Optional.<Buffer>empty();
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    /** The marker as the slow path sends it back: in GTP-U with a PDU Session Container. */
    private static byte[] tunnelled(byte[] marker) {
        byte[] inner = java.util.Arrays.copyOfRange(marker, 14, marker.length);
        byte[] frame = new byte[14 + 20 + 8 + 16 + inner.length];
        frame[12] = 0x08;
        frame[14] = 0x45;
        frame[14 + 9] = 17;
        frame[34 + 2] = 0x08;
        frame[34 + 3] = 0x68;
        frame[42] = 0x34;       // GTPv1, PT, E
        frame[42 + 11] = (byte) 0x85;  // next extension: PDU Session Container
        frame[54] = 1;          // its length: one word
        System.arraycopy(inner, 0, frame, 58, inner.length);
        return frame;
    }

    private UpfSessionRecord session(String ue, int slot) {
        return session(ue, slot, 1);
    }

    /** A session whose gNodeB is the fast path's tunnel peer `peer` (10.0.0.`peer`). */
    private UpfSessionRecord session(String ue, int slot, int peer) {
        PduSession s = PduSession.builder().id(slot).deviceId(SLOW).ueAddress(Ip4Address.valueOf(ue))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(100 + slot)
                .gnbAddress(Ip4Address.valueOf("10.0.0." + peer)).downlinkTeid(200 + slot).qfi(9)
                .build();
        UpfSessionRecord r = new UpfSessionRecord(s, slot, peer);
        store.putSessions(List.of(r));
        return r;
    }

    private HeavyHitter report(String ue) {
        return new HeavyHitter(FAST, Ip4Address.valueOf(ue), Ip4Address.valueOf("10.0.2.2"), 17,
                               4000, 8080, 100, 1, Instant.EPOCH);
    }

    private UePlacement placement(String ue) {
        return manager.placement(Ip4Address.valueOf(ue)).orElseThrow();
    }

    private void promoted(String ue) {
        manager.heavyHitter(report(ue));
        release(ue);
    }

    /** What the packet-in of the marker does, on the caller's thread. */
    private void release(String ue) {
        byte[] frame = tunnelled(EndMarkers.frame(Ip4Address.valueOf(ue), 1,
                                                  EndMarkers.DST_MAC));
        assertTrue(manager.packetIn(FAST, frame));
        waitFor(() -> placement(ue).path() == UePlacement.Path.FAST);
    }

    private static void waitFor(java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    public void aPromotionHoldsWritesOnceSendsTheMarkerAndReleasesOnIt() {
        session("10.250.0.1", 5);
        writeNanos = 500_000;  // the Write acknowledged 0.5 ms after the report
        manager.heavyHitter(report("10.250.0.1"));
        assertEquals(List.of("pause device:s1/2 " + FlowFilter.builder()
                                     .ipv4Dst(org.onlab.packet.IpPrefix.valueOf("10.250.0.1/32")).build(),
                             "write device:s1 -0 +3",
                             "marker device:s1/3 to 10.250.0.1"), log);
        UePlacement moving = placement("10.250.0.1");
        assertTrue(moving.moving());
        assertEquals(UePlacement.Path.SLOW, moving.path());
        now += 2_000_000;  // 2 ms to the marker
        release("10.250.0.1");
        assertEquals("move auto-1 FORWARDING", log.get(3));
        UePlacement p = placement("10.250.0.1");
        assertEquals(1, p.promotions());
        // Active on the fast path at its Write; its packets released at the marker.
        assertEquals(500, p.lastActiveMicros());
        assertEquals(2500, p.lastMoveMicros());
        assertFalse(p.moving());
    }

    @Test
    public void aPromotionIsTimedFromItsDigestsArrival() {
        session("10.250.0.1", 5);
        writeNanos = 500_000;
        // The digest came 3 ms before the placement took it (it waited behind others).
        manager.heavyHitter(new HeavyHitter(FAST, Ip4Address.valueOf("10.250.0.1"),
                                            Ip4Address.valueOf("10.0.2.2"), 17, 4000, 8080, 100, 1,
                                            Instant.EPOCH.minusMillis(3)));
        // The promoter sends the marker after it took the Write's time; the
        // clock moves on only then (it raced with the promoter's thread).
        waitFor(() -> logged().stream().anyMatch(l -> l.startsWith("marker ")));
        now += 2_000_000;
        release("10.250.0.1");
        UePlacement p = placement("10.250.0.1");
        assertEquals(3500, p.lastActiveMicros());
        assertEquals(5500, p.lastMoveMicros());
    }

    @Test
    public void digestsOfOtherSwitchesAndUesWithoutASessionMoveNothing() {
        manager.heavyHitter(report("10.250.0.9"));
        session("10.250.0.1", 5);
        manager.heavyHitter(new HeavyHitter(SLOW, Ip4Address.valueOf("10.250.0.1"),
                                            Ip4Address.valueOf("10.0.2.2"), 17, 1, 2, 3, 4,
                                            Instant.EPOCH));
        assertEquals(List.of(), log);
        assertFalse(manager.packetIn(FAST, new byte[60]));
        assertFalse(manager.packetIn(SLOW, tunnelled(EndMarkers.frame(
                Ip4Address.valueOf("10.250.0.1"), 1, EndMarkers.DST_MAC))));
    }

    @Test
    public void aFullBudgetEvictsTheColdestFirst() {
        session("10.250.0.1", 1);
        session("10.250.0.2", 2);
        session("10.250.0.3", 3);
        promoted("10.250.0.1");
        promoted("10.250.0.2");
        // A window: UE 1 at 8 Mbit/s, UE 2 at 2 Mbit/s (both heavy).
        manager.tick();
        now += 100_000_000;
        counters.put(3, 100_000L);     // cell 2 * 1 + 1
        counters.put(5, 25_000L);      // cell 2 * 2 + 1
        manager.tick();
        assertEquals(8_000_000, placement("10.250.0.1").rateBps());
        assertEquals(2_000_000, placement("10.250.0.2").rateBps());
        log.clear();
        manager.heavyHitter(report("10.250.0.3"));
        assertEquals(UePlacement.Path.SLOW, placement("10.250.0.2").path());
        assertEquals(1, placement("10.250.0.2").demotions());
        assertEquals(UePlacement.Path.FAST, placement("10.250.0.1").path());
        // The demotion's one Write (its session and termination; the peer stays,
        // UE 1 names it), then the new UE's hold and Write.
        assertEquals("write device:s1 -2 +0", log.get(0));
        assertEquals("withdraw 2", log.get(1));
        assertEquals("remove auto-2", log.get(2));
        assertTrue(log.get(3).startsWith("pause device:s1/2"));
        assertEquals("write device:s1 -0 +2", log.get(4));
        assertEquals(2, manager.fastSessionsUsed());
    }

    @Test
    public void aUeWhoseRateWasNotMeasuredYetIsNotEvicted() {
        session("10.250.0.1", 1);
        session("10.250.0.2", 2);
        session("10.250.0.3", 3);
        promoted("10.250.0.2");
        manager.tick();
        now += 100_000_000;
        counters.put(5, 100_000L);     // UE 2 measured: 8 Mbit/s
        manager.tick();
        // Just promoted: the heavy rate as a placeholder, the lowest address.
        promoted("10.250.0.1");
        manager.heavyHitter(report("10.250.0.3"));
        assertEquals(UePlacement.Path.FAST, placement("10.250.0.1").path());
        assertEquals(UePlacement.Path.SLOW, placement("10.250.0.2").path());
        assertEquals(1, placement("10.250.0.2").demotions());
        assertTrue(placement("10.250.0.3").moving());
        // Every holder without a measured rate: a new report is not promoted.
        manager.heavyHitter(report("10.250.0.2"));
        assertEquals(UePlacement.Path.SLOW, placement("10.250.0.2").path());
        assertFalse(placement("10.250.0.2").moving());
        assertEquals(UePlacement.Path.FAST, placement("10.250.0.1").path());
        assertEquals(2, manager.fastSessionsUsed());
    }

    @Test
    public void aUeUnderTheRateForTheIdleTimeIsDemotedAndItsBufferLetGoOnceEmpty() {
        session("10.250.0.1", 1);
        promoted("10.250.0.1");
        manager.tick();
        counters.put(3, 1_000_000L);
        now += 100_000_000;
        manager.tick();                          // 80 Mbit/s: heavy
        for (int i = 0; i < 9; i++) {            // 900 ms silent: not yet
            now += 100_000_000;
            manager.tick();
        }
        assertEquals(UePlacement.Path.FAST, placement("10.250.0.1").path());
        held.put("auto-1", 3L);                  // its buffer still forwards 3 packets
        now += 100_000_000;
        log.clear();
        manager.tick();                          // 1000 ms under the rate
        assertEquals(UePlacement.Path.SLOW, placement("10.250.0.1").path());
        assertEquals(List.of("write device:s1 -3 +0"), log);  // session, termination, peer
        held.put("auto-1", 0L);
        manager.tick();
        assertEquals(List.of("write device:s1 -3 +0", "withdraw 1", "remove auto-1"), log);
        assertEquals(0, manager.fastSessionsUsed());
    }

    @Test
    public void settingsOffOnAManagerThatWasNeverOnWriteNothing() {
        // A host whose netcfg has no hybrid section configures it off at
        // start; that once failed the start (no fast device to write to).
        manager.configure(HybridSettings.off());
        log.clear();
        manager.configure(HybridSettings.off());
        assertEquals(List.of(), log);
    }

    @Test
    public void badSettingsAreRefusedAndChangeNothing() {
        HybridSettings before = manager.settings();
        for (Runnable bad : List.<Runnable>of(
                () -> manager.configure(HybridSettings.of(DeviceId.deviceId("device:x"), SLOW, 3, 2,
                                                          1, 1000, 100)),
                () -> HybridSettings.of(FAST, FAST, 3, 2, 1, 1000, 100),
                () -> HybridSettings.of(FAST, SLOW, 3, 3, 1, 1000, 100),
                () -> HybridSettings.of(FAST, SLOW, 0, 2, 1, 1000, 100),
                () -> HybridSettings.of(FAST, SLOW, 3, 2, 0, 1000, 100),
                () -> HybridSettings.of(FAST, SLOW, 3, 2, 40_000, 1000, 100),
                () -> HybridSettings.of(FAST, SLOW, 3, 2, 1, 10, 10),
                () -> HybridSettings.of(FAST, SLOW, 3, 2, 1, 1000, 2000))) {
            try {
                bad.run();
                fail("accepted");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
            }
        }
        assertEquals(before, manager.settings());
        assertEquals(List.of(), log);
    }

    @Test
    public void aSmallerBudgetDemotesTheColdestAtOnce() {
        session("10.250.0.1", 1);
        session("10.250.0.2", 2);
        promoted("10.250.0.1");
        promoted("10.250.0.2");
        manager.tick();
        now += 100_000_000;
        counters.put(3, 10_000L);
        counters.put(5, 90_000L);
        manager.tick();
        manager.configure(settings(1, 1000, 100));
        assertEquals(UePlacement.Path.SLOW, placement("10.250.0.1").path());
        assertEquals(UePlacement.Path.FAST, placement("10.250.0.2").path());
    }

    /** A copy of the log (promoters add to it meanwhile). */
    private List<String> logged() {
        return new ArrayList<>(log);
    }

    /** The manager again, promoting on a pool of two threads. */
    private ExecutorService promotingOnTwoThreads() {
        manager.close();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        timer = manualWindows();
        manager = new PlacementManager(deps.withPromotions(pool), timer);
        manager.configure(settings(2, 1000, 100));
        log.clear();
        return pool;
    }

    @Test
    public void reportsOfTwoUesArePromotedAtOnceOnThePromoters() throws Exception {
        // Two gNodeBs: each first UE writes its peer's entry in the peer's turn.
        session("10.250.0.1", 1, 1);
        session("10.250.0.2", 2, 2);
        ExecutorService pool = promotingOnTwoThreads();
        try {
            // Each hold waits until the other UE's hold has begun too: one
            // after the other, the first would wait 5 s and say false.
            pauseGate = new CountDownLatch(2);
            manager.heavyHitter(report("10.250.0.1"));
            manager.heavyHitter(report("10.250.0.2"));
            waitFor(() -> logged().stream().filter(l -> l.startsWith("marker")).count() == 2);
            assertEquals(List.of("both held: true", "both held: true"),
                         logged().stream().filter(l -> l.startsWith("both held")).collect(
                                 java.util.stream.Collectors.toList()));
            pauseGate = null;
            release("10.250.0.1");
            release("10.250.0.2");
            assertEquals(2, manager.fastSessionsUsed());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void ueOfOneGnodebArePromotedAtOnceOnceItsPeerIsOnTheFastPath() throws Exception {
        // One gNodeB: the first UE writes the peer's entry with its session,
        // in the peer's turn; the next two count themselves in and write at once.
        session("10.250.0.1", 1, 1);
        session("10.250.0.2", 2, 1);
        session("10.250.0.3", 3, 1);
        ExecutorService pool = promotingOnTwoThreads();
        manager.configure(settings(3, 1000, 100));
        try {
            promoted("10.250.0.1");
            assertTrue(logged().contains("write device:s1 -0 +3"));  // session, termination, peer
            log.clear();
            // Each Write waits until the other UE's Write has begun too: one
            // after the other, the first would wait 5 s and say false.
            writeGate = new CountDownLatch(2);
            manager.heavyHitter(report("10.250.0.2"));
            manager.heavyHitter(report("10.250.0.3"));
            waitFor(() -> logged().stream().filter(l -> l.startsWith("write")).count() == 2);
            writeGate = null;
            assertEquals(List.of("both writing: true", "both writing: true"),
                         logged().stream().filter(l -> l.startsWith("both writing")).collect(
                                 java.util.stream.Collectors.toList()));
            assertEquals(2, logged().stream().filter(l -> l.equals("write device:s1 -0 +2")).count());
            release("10.250.0.2");
            release("10.250.0.3");
            assertEquals(3, manager.fastSessionsUsed());
            // The peer's entry goes with the last UE that names it, not before.
            log.clear();
            assertTrue(manager.demote(Ip4Address.valueOf("10.250.0.1"), "test"));
            assertTrue(manager.demote(Ip4Address.valueOf("10.250.0.2"), "test"));
            assertTrue(manager.demote(Ip4Address.valueOf("10.250.0.3"), "test"));
            assertEquals(List.of("write device:s1 -2 +0", "write device:s1 -2 +0",
                                 "write device:s1 -3 +0"),
                         logged().stream().filter(l -> l.startsWith("write")).collect(
                                 java.util.stream.Collectors.toList()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void aSecondReportOfAUeBeingPromotedMovesNothing() throws Exception {
        session("10.250.0.1", 1);
        ExecutorService pool = promotingOnTwoThreads();
        try {
            CountDownLatch gate = new CountDownLatch(2);
            pauseGate = gate;  // the first hold waits (it never sees a second one)
            manager.heavyHitter(report("10.250.0.1"));
            waitFor(() -> gate.getCount() == 1);
            manager.heavyHitter(report("10.250.0.1"));  // while the first is under way
            gate.countDown();  // lets the first go on
            waitFor(() -> logged().stream().anyMatch(l -> l.startsWith("marker")));
            pauseGate = null;
            release("10.250.0.1");
            manager.heavyHitter(report("10.250.0.1"));  // on the fast path already
            Thread.sleep(100);
            assertEquals(1, logged().stream().filter(l -> l.startsWith("pause")).count());
            assertEquals(1, logged().stream().filter(l -> l.startsWith("write")).count());
            assertEquals(1, placement("10.250.0.1").promotions());
            assertEquals(1, manager.fastSessionsUsed());
        } finally {
            pool.shutdownNow();
        }
    }
}
