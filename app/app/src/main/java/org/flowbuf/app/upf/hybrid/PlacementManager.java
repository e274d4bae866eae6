/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import com.google.common.util.concurrent.Striped;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.app.packet.PacketEmitter;
import org.flowbuf.app.task.StripedTurns;
import org.flowbuf.app.upf.UpfSessionRecord;
import org.flowbuf.app.upf.UpfStore;
import org.flowbuf.app.upf.UpfWrite;
import org.flowbuf.app.upf.UpfWriter;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The hybrid UPF's placement. Every session runs on the slow path (the
 * UPF service installs it there); a heavy-hitter report from the fast
 * path promotes the UE's downlink:
 * <ol>
 * <li>its packets are held on the fast path (a pause intent at the data
 * network's port: a FlowBuf buffer);</li>
 * <li>its downlink session and termination go to the fast path in one
 * P4Runtime Write;</li>
 * <li>an end marker goes down the slow path behind its last packets there;
 * when the fast path punts it back, the slow path has drained, and the
 * buffer forwards what it held, in order, then what follows.</li>
 * </ol>
 * A demotion removes the fast-path entries in one Write: what the buffer
 * replays and what follows misses the fast path and takes the slow path
 * behind it (the longer path cannot overtake), then the pause is withdrawn
 * once its buffer is empty. When the fast path's budget is full, the
 * coldest promoted UE (lowest rate over the last window, from the fast
 * path's session counters) is demoted first; a promoted UE under the
 * heavy-hitter rate for the demotion idle time is demoted.
 *
 * <p>Each UE's moves run in its turn (a striped lock). Its tunnel peer's
 * turn is taken after it, and held through a Write only by the move that
 * inserts or removes the peer's entry: the UEs of one gNodeB are promoted
 * at once. The budget is counted under a lock held for no switch call.
 */
public final class PlacementManager implements HybridPlacementService, AutoCloseable {

    /** Owner of the pauses and buffers of the placement. */
    public static final String OWNER = "org.flowbuf.upf.hybrid";
    /** How long a promotion waits for its end marker before it releases anyway. */
    static final long MARKER_WAIT_MS = 1000;
    /**
     * Promotions a host or an ONOS instance runs at once (its promoters'
     * threads): a burst of reports (a trace's start) waits behind a few
     * promotions' calls to the switch, not behind all of them.
     */
    public static final int PROMOTERS = 4;

    private static final Logger LOG = LoggerFactory.getLogger(PlacementManager.class);
    private static final int EVICTION_ATTEMPTS = 3;

    private final PlacementEntries entries;
    private final UpfStore store;
    private final UpfWriter writer;
    private final FastPath fastPath;
    private final PacketEmitter packets;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Predicate<DeviceId> known;
    private final LongSupplier heavyRateBps;
    private final LongSupplier nanos;
    private final Clock wall;
    private final Function<Ip4Address, Optional<MacAddress>> macOf;
    private final ScheduledExecutorService timer;
    private final Executor promotions;
    /** UEs whose report is being promoted: a second report of one waits for nothing. */
    private final Set<Ip4Address> reported = ConcurrentHashMap.newKeySet();
    private final Striped<Lock> turns = Striped.lock(256);
    /** Tunnel peers' turns, always taken after a UE's (never the other way round). */
    private final Striped<Lock> peerTurns = Striped.lock(64);
    private final Map<Ip4Address, UeState> ues = new ConcurrentHashMap<>();
    /** Fast-path tunnel peers by id: the entry and how many promoted UEs name it. */
    private final Map<Integer, PeerUse> peers = new ConcurrentHashMap<>();
    private final AtomicLong moveSeq = new AtomicLong();
    private final AtomicLong markerTimeouts = new AtomicLong();
    private volatile HybridSettings settings = HybridSettings.off();
    private volatile FastBudget budget = new FastBudget(HybridSettings.DEFAULT_BUDGET);
    private volatile ScheduledFuture<?> tick;

    /** What the manager works with. */
    public static final class Deps {
        ApplicationId appId;
        UpfStore store;
        UpfWriter writer;
        FastPath fastPath;
        PacketEmitter packets;
        FlowBufIntentService intents;
        BufferService buffers;
        Predicate<DeviceId> known;
        LongSupplier heavyRateBps;
        LongSupplier nanos = System::nanoTime;
        Clock wall = Clock.systemUTC();
        Function<Ip4Address, Optional<MacAddress>> macOf = ip -> Optional.empty();
        Executor promotions = Runnable::run;

        /**
         * The dependencies.
         *
         * @param appId        owner of the entries
         * @param store        the UPF's sessions (those on the slow path are placed)
         * @param writer       writes UPF entries
         * @param fastPath     the fast path's slow port and counters
         * @param packets      packet-out (the end markers)
         * @param intents      pauses (the hold)
         * @param buffers      buffers (the release)
         * @param known        devices that may be named
         * @param heavyRateBps the heavy-hitter rate (the detector's setting), bit/s
         */
        public Deps(ApplicationId appId, UpfStore store, UpfWriter writer, FastPath fastPath,
                    PacketEmitter packets, FlowBufIntentService intents, BufferService buffers,
                    Predicate<DeviceId> known, LongSupplier heavyRateBps) {
            this.appId = appId;
            this.store = store;
            this.writer = writer;
            this.fastPath = fastPath;
            this.packets = packets;
            this.intents = intents;
            this.buffers = buffers;
            this.known = known;
            this.heavyRateBps = heavyRateBps;
        }

        /**
         * Where the MACs of the gNodeBs come from (the host's netcfg, ONOS's
         * host service): the end marker carries its UE's gNodeB's MAC, as the
         * data network's router sends the UE's downlink.
         *
         * @param macs MAC by IPv4 address
         * @return this
         */
        public Deps withMacs(Function<Ip4Address, Optional<MacAddress>> macs) {
            this.macOf = macs;
            return this;
        }

        /**
         * Where reports are promoted: by default on the reporting thread, one
         * after another, so that a burst of reports waits behind the first
         * one's calls to the switch; a pool promotes different UEs at once
         * (each UE's moves still run in its turn).
         *
         * @param executor runs each report's promotion
         * @return this
         */
        public Deps withPromotions(Executor executor) {
            this.promotions = Objects.requireNonNull(executor);
            return this;
        }

        /**
         * Another clock (tests).
         *
         * @param clock nanoseconds
         * @return this
         */
        public Deps withClock(LongSupplier clock) {
            this.nanos = clock;
            return this;
        }

        /**
         * Another wall clock (tests): a report's time of arrival is on it.
         *
         * @param clock the wall clock
         * @return this
         */
        public Deps withWallClock(Clock clock) {
            this.wall = clock;
            return this;
        }
    }

    /**
     * A manager; nothing is placed until {@link #configure} names the paths.
     *
     * @param deps  what it works with
     * @param timer runs the rate windows and the markers' deadlines
     */
    public PlacementManager(Deps deps, ScheduledExecutorService timer) {
        this.entries = new PlacementEntries(deps.appId);
        this.store = deps.store;
        this.writer = deps.writer;
        this.fastPath = deps.fastPath;
        this.packets = deps.packets;
        this.intents = deps.intents;
        this.buffers = deps.buffers;
        this.known = deps.known;
        this.heavyRateBps = deps.heavyRateBps;
        this.nanos = deps.nanos;
        this.wall = deps.wall;
        this.macOf = deps.macOf;
        this.promotions = deps.promotions;
        this.timer = timer;
    }

    /**
     * A manager with a timer thread of its own.
     *
     * @param deps what it works with
     * @return manager
     */
    public static PlacementManager withOwnTimer(Deps deps) {
        return new PlacementManager(deps, Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "flowbuf-hybrid-placement");
            t.setDaemon(true);
            return t;
        }));
    }

    // ---- settings ----------------------------------------------------

    @Override
    public HybridSettings settings() {
        return settings;
    }

    @Override
    public synchronized void configure(HybridSettings next) {
        for (Optional<DeviceId> d : List.of(next.fastDevice(), next.slowDevice())) {
            if (d.isPresent() && !known.test(d.get())) {
                throw FlowBufException.invalid("device %s is not configured", d.get());
            }
        }
        HybridSettings before = settings;
        boolean samePaths = before.fastDevice().equals(next.fastDevice())
                && before.slowDevice().equals(next.slowDevice());
        if (!samePaths) {
            demoteAll("the paths changed");
        }
        settings = next;
        budget.resize(next.fastTableBudget());
        if (before.fastDevice().isPresent() && !samePaths) {
            writeSlowPort(before, Optional.empty());
        }
        restartTick(next);
        LOG.info("hybrid placement: {} (was {})", next, before);
        while (budget.over() && demoteColdest("the budget shrank", this::movableRate)) {
            continue;
        }
        if (next.fastDevice().isPresent()) {
            writeSlowPort(next, next.enabled() ? Optional.of(next.slowPort()) : Optional.empty());
        }
    }

    /**
     * Writes the fast path's slow port again (after the switch came back).
     *
     * @param device the switch that came back
     */
    public void prepare(DeviceId device) {
        HybridSettings s = settings;
        if (s.fastDevice().equals(Optional.of(device))) {
            writeSlowPort(s, Optional.of(s.slowPort()));
        }
    }

    private void writeSlowPort(HybridSettings s, Optional<PortNumber> port) {
        fastPath.setSlowPort(s.fastDevice().orElseThrow(), port);
    }

    private void restartTick(HybridSettings next) {
        ScheduledFuture<?> t = tick;
        if (t != null) {
            t.cancel(false);
        }
        tick = next.enabled()
                ? timer.scheduleWithFixedDelay(this::tickQuietly, next.windowMs(), next.windowMs(),
                                               TimeUnit.MILLISECONDS)
                : null;
    }

    // ---- views -------------------------------------------------------

    @Override
    public List<UePlacement> placements() {
        return ues.values().stream().map(UeState::view)
                .sorted(Comparator.comparing(UePlacement::ueAddress))
                .collect(Collectors.toList());
    }

    @Override
    public Optional<UePlacement> placement(Ip4Address ue) {
        UeState s = ues.get(ue);
        if (s != null) {
            return Optional.of(s.view());
        }
        return sessionOf(ue).map(r -> new UePlacement(ue, UePlacement.Path.SLOW, false, 0, 0, 0, 0));
    }

    /**
     * Fast-path sessions in use (promoted and promoting UEs).
     *
     * @return count
     */
    public int fastSessionsUsed() {
        return budget.used();
    }

    /**
     * Promotions that released their UE without the end marker (the slow
     * path lost it, or held it longer than {@link #MARKER_WAIT_MS}).
     *
     * @return count
     */
    public long markerTimeouts() {
        return markerTimeouts.get();
    }

    // ---- events ------------------------------------------------------

    /**
     * A heavy-hitter report: a UE of the fast path is promoted.
     *
     * @param report the report
     */
    public void heavyHitter(HeavyHitter report) {
        HybridSettings s = settings;
        if (!s.fastDevice().equals(Optional.of(report.deviceId()))
                || !reported.add(report.ueAddress())) {
            return;
        }
        try {
            promotions.execute(() -> promoteReported(report));
        } catch (RejectedExecutionException e) {
            reported.remove(report.ueAddress());
            LOG.warn("{} not promoted: the placement is closing", report.ueAddress());
        }
    }

    private void promoteReported(HeavyHitter report) {
        try {
            // Its move is timed from the digest's arrival: the time it waited
            // behind other reports counts.
            long dispatched = nanos.getAsLong();
            long waited = Math.max(0, Duration.between(report.reportedAt(), wall.instant()).toNanos());
            long inFlight = report.emittedAt()
                    .map(made -> Duration.between(made, report.reportedAt()).toNanos()).orElse(-1L);
            promote(report.ueAddress(), new Timing(dispatched - waited, dispatched, inFlight));
        } catch (RuntimeException e) {
            LOG.warn("{}: heavy hitter {} not placed: {}", report.deviceId(), report.ueAddress(),
                     e.toString());
        } finally {
            reported.remove(report.ueAddress());
        }
    }

    /**
     * A packet-in: an end marker back from the slow path completes its
     * UE's promotion.
     *
     * @param device the switch it came from
     * @param frame  the frame
     * @return whether it was an end marker (consumed)
     */
    public boolean packetIn(DeviceId device, byte[] frame) {
        if (!settings.fastDevice().equals(Optional.of(device))) {
            return false;
        }
        Optional<Ip4Address> ue = EndMarkers.ueOf(frame);
        ue.ifPresent(this::markerBack);
        // The release writes to the switch: not on the stream's thread.
        ue.ifPresent(u -> timer.execute(() -> release(u, false)));
        return ue.isPresent();
    }

    /** Stamps the marker's return (before the release waits for the timer thread). */
    private void markerBack(Ip4Address ue) {
        UeState s = ues.get(ue);
        if (s != null && s.phase == UeState.Phase.PROMOTING && !s.markerReturned) {
            s.markerBackNanos = nanos.getAsLong();
            s.markerReturned = true;
        }
    }

    // ---- promotion ---------------------------------------------------

    /**
     * Promotes a UE that has a session on the slow path (nothing when it
     * has none or is on the fast path already).
     *
     * @param ue the UE
     */
    public void promote(Ip4Address ue) {
        long now = nanos.getAsLong();
        promote(ue, new Timing(now, now, -1));
    }

    /** Promotes a UE, its move timed as the report's timing says. */
    private void promote(Ip4Address ue, Timing timing) {
        Optional<UpfSessionRecord> record = sessionOf(ue);
        if (record.isEmpty()) {
            LOG.debug("heavy hitter {} has no session on the slow path: not promoted", ue);
            return;
        }
        UeState s = ues.computeIfAbsent(ue, UeState::new);
        if (s.phase != UeState.Phase.SLOW) {
            return;
        }
        timing.begun = nanos.getAsLong();
        if (!takeBudget(ue)) {
            LOG.warn("{} not promoted: the fast path's {} sessions are all moving", ue,
                     settings.fastTableBudget());
            return;
        }
        boolean started = false;
        try {
            started = inTurn(ue, () -> startPromotion(s, record.get(), timing));
        } catch (FlowBufException e) {
            LOG.warn("{} not promoted: {}", ue, e.getMessage());
        } finally {
            if (!started) {
                budget.give(ue);
            }
        }
    }

    private boolean takeBudget(Ip4Address ue) {
        for (int i = 0; i < EVICTION_ATTEMPTS; i++) {
            if (budget.take(ue)) {
                return true;
            }
            if (!demoteColdest("evicted for " + ue, this::measuredRate)) {
                return false;
            }
        }
        return budget.take(ue);
    }

    private boolean startPromotion(UeState s, UpfSessionRecord record, Timing timing) {
        if (s.phase != UeState.Phase.SLOW || s.cleanupPending && !letGo(s)) {
            return false;
        }
        HybridSettings set = settings;
        DeviceId fast = set.fastDevice().orElseThrow();
        // Built before the hold, so that the hold and the sessions' Write follow each other.
        List<FlowRule> downlink = entries.downlink(fast, record);
        FlowBufIntent pause = intents.pause(fast, set.dnPort(), toUe(s.ue), Optional.empty(), OWNER);
        s.pause = pause.id();
        s.buffer = pause.bufferId().orElseThrow();
        s.dispatchedNanos = timing.dispatched;
        s.begunNanos = timing.begun;
        s.reportInFlightNanos = timing.inFlight;
        s.heldNanos = nanos.getAsLong();
        try {
            joinPeerAndWrite(fast, record, downlink);
        } catch (RuntimeException e) {
            unpause(s);
            throw e;
        }
        s.writtenNanos = nanos.getAsLong();
        s.fastRules = downlink;
        s.cell = record.downlinkCell();
        s.tunnelPeer = record.tunnelPeer();
        s.moveSeq = moveSeq.incrementAndGet();
        s.moveStartNanos = timing.start;
        s.markerBackNanos = 0;
        s.markerReturned = false;
        s.phase = UeState.Phase.PROMOTING;
        // The deadline before the marker: it may come back at once.
        s.markerTimeout = timer.schedule(() -> release(s.ue, true), MARKER_WAIT_MS,
                                         TimeUnit.MILLISECONDS);
        // After the Write, not overlapping it: on two loaded cores the
        // marker's trip through both switches slowed the Write (the session
        // active 3 ms later) more than it shortened the release.
        sendMarker(s, record, set);
        return true;
    }

    /** Sends the end marker down the slow path; without it, the deadline releases. */
    private void sendMarker(UeState s, UpfSessionRecord record, HybridSettings set) {
        s.markerSentNanos = -1;
        try {
            MacAddress gnb = macOf.apply(record.session().gnbAddress()).orElse(EndMarkers.DST_MAC);
            packets.emit(set.fastDevice().orElseThrow(), set.slowPort(),
                         EndMarkers.frame(s.ue, s.moveSeq, gnb));
            s.markerSentNanos = nanos.getAsLong();
        } catch (RuntimeException e) {
            LOG.warn("{}: end marker not sent ({}); released at the deadline", s.ue, e.getMessage());
        }
    }

    /**
     * Writes the UE's downlink to the fast path, with its tunnel peer's
     * entry when no promoted UE has put it there. Only that first UE holds
     * the peer's turn through its Write; the others count themselves in and
     * write at once (the entry stays while one counts).
     */
    private void joinPeerAndWrite(DeviceId fast, UpfSessionRecord record, List<FlowRule> downlink) {
        int id = record.tunnelPeer();
        Lock peerTurn = peerTurns.get(id);
        peerTurn.lock();
        PeerUse peer;
        try {
            peer = peers.get(id);
            if (peer == null) {
                PeerUse first = new PeerUse(entries.tunnelPeer(fast, record));
                UpfWrite write = new UpfWrite();
                write.inserts().addAll(downlink);
                write.inserts().add(first.rule);
                writer.write(fast, write);
                first.users = 1;
                peers.put(id, first);
                return;
            }
            peer.users++;
        } finally {
            peerTurn.unlock();
        }
        try {
            UpfWrite write = new UpfWrite();
            write.inserts().addAll(downlink);
            writer.write(fast, write);
        } catch (RuntimeException e) {
            leavePeer(fast, id);
            throw e;
        }
    }

    /** A UE that named the peer no longer does: the last one's leaving removes its entry. */
    private void leavePeer(DeviceId fast, int id) {
        Lock peerTurn = peerTurns.get(id);
        peerTurn.lock();
        try {
            PeerUse peer = peers.get(id);
            if (peer == null) {
                return;
            }
            if (peer.users > 1) {
                peer.users--;
                return;
            }
            UpfWrite write = new UpfWrite();
            write.removes().add(peer.rule);
            writer.write(fast, write);
            peers.remove(id);
        } catch (FlowBufException e) {
            LOG.warn("tunnel peer {} left on {}: {}", id, fast, e.getMessage());
        } finally {
            peerTurn.unlock();
        }
    }

    /** The end marker came back (or its deadline passed): the buffer forwards. */
    private void release(Ip4Address ue, boolean deadline) {
        UeState s = ues.get(ue);
        if (s == null) {
            return;
        }
        try {
            inTurn(ue, () -> {
                releaseInTurn(s, deadline);
                return null;
            });
        } catch (FlowBufException e) {
            LOG.warn("{}: held packets not released ({}); trying again", ue, e.getMessage());
            s.markerTimeout = timer.schedule(() -> release(ue, true), MARKER_WAIT_MS,
                                             TimeUnit.MILLISECONDS);
        }
    }

    private void releaseInTurn(UeState s, boolean deadline) {
        if (s.phase != UeState.Phase.PROMOTING) {
            return;
        }
        ScheduledFuture<?> t = s.markerTimeout;
        if (t != null && !deadline) {
            t.cancel(false);
        }
        buffers.moveBuffer(settings.fastDevice().orElseThrow(), s.buffer, OWNER,
                           BufferState.FORWARDING);
        s.promotions++;
        long released = nanos.getAsLong();
        s.lastMoveMicros = (released - s.moveStartNanos) / 1000;
        s.lastActiveMicros = (s.writtenNanos - s.moveStartNanos) / 1000;
        logSteps(s, released);
        s.rateBps = heavyRateBps.getAsLong();  // a heavy hitter until measured
        s.rateMeasured = false;
        s.lastBytes = -1;
        s.underSinceNanos = -1;
        // Published last: a reader that sees FAST sees this move's figures.
        s.phase = UeState.Phase.FAST;
        if (deadline) {
            s.markerTimeouts++;
            markerTimeouts.incrementAndGet();
            LOG.warn("{}: no end marker within {} ms; released (order not guaranteed)",
                     s.ue, MARKER_WAIT_MS);
        }
    }

    /**
     * One line per promotion: the time of each step since the digest came
     * (µs), cumulative, so that its figures show where the time goes
     * (dispatched: a promoter took the report; begun: its session found and
     * an eviction's demotion done).
     */
    private void logSteps(UeState s, long released) {
        long t0 = s.moveStartNanos;
        long back = s.markerReturned ? s.markerBackNanos : -1;
        long inFlight = s.reportInFlightNanos;
        long sent = s.markerSentNanos;  // -1: not sent
        LOG.info("{} promoted: digest in flight {} us, dispatched {} us, begun {} us, held {} us, "
                         + "written (active) {} us, marker sent {} us, marker back {} us, "
                         + "released {} us",
                 s.ue, inFlight >= 0 ? inFlight / 1000 : -1, (s.dispatchedNanos - t0) / 1000,
                 (s.begunNanos - t0) / 1000, (s.heldNanos - t0) / 1000,
                 (s.writtenNanos - t0) / 1000, sent >= 0 ? (sent - t0) / 1000 : -1,
                 back >= 0 ? (back - t0) / 1000 : -1, (released - t0) / 1000);
    }

    // ---- demotion ----------------------------------------------------

    private boolean demoteColdest(String why, Function<Ip4Address, Optional<Long>> rateOf) {
        Optional<Ip4Address> victim = budget.coldest(rateOf);
        victim.ifPresent(v -> demote(v, why));
        return victim.isPresent();
    }

    private Optional<Long> movableRate(Ip4Address ue) {
        UeState s = ues.get(ue);
        return s != null && s.phase == UeState.Phase.FAST ? Optional.of(s.rateBps)
                : Optional.empty();
    }

    /**
     * The rate of a promoted UE whose rate was measured on the fast path (a
     * whole window there). One promoted less than that carries the heavy
     * rate as a placeholder, the lowest a heavy hitter has: it would be the
     * coldest, and with ties going to the lowest address, a new report
     * evicted the heaviest UEs of a trace just after their promotion (they
     * are reported once, so they stayed on the slow path).
     */
    private Optional<Long> measuredRate(Ip4Address ue) {
        UeState s = ues.get(ue);
        return s != null && s.rateMeasured ? movableRate(ue) : Optional.empty();
    }

    /**
     * Demotes a promoted UE to the slow path (nothing when it is not on the
     * fast path, or still moving there).
     *
     * @param ue  the UE
     * @param why for the log
     * @return whether it was demoted
     */
    public boolean demote(Ip4Address ue, String why) {
        UeState s = ues.get(ue);
        if (s == null || s.phase != UeState.Phase.FAST) {
            return false;
        }
        try {
            return inTurn(ue, () -> demoteInTurn(s, why));
        } catch (FlowBufException e) {
            LOG.warn("{} not demoted ({}): {}", ue, why, e.getMessage());
            return false;
        }
    }

    private boolean demoteInTurn(UeState s, String why) {
        if (s.phase != UeState.Phase.FAST) {
            return false;
        }
        long start = nanos.getAsLong();
        removeFromFastPath(settings.fastDevice().orElseThrow(), s);
        s.phase = UeState.Phase.SLOW;
        s.demotions++;
        s.lastMoveMicros = (nanos.getAsLong() - start) / 1000;
        s.lastActiveMicros = s.lastMoveMicros;
        budget.give(s.ue);
        s.cleanupPending = !letGo(s);
        LOG.info("{} demoted to the slow path: {}", s.ue, why);
        return true;
    }

    /**
     * Removes the UE's fast-path entries in one Write, with its tunnel
     * peer's when it is the last UE naming it, in the peer's turn (a UE
     * joining the peer meanwhile waits, then inserts it again).
     */
    private void removeFromFastPath(DeviceId fast, UeState s) {
        Lock peerTurn = peerTurns.get(s.tunnelPeer);
        peerTurn.lock();
        try {
            UpfWrite write = new UpfWrite();
            write.removes().addAll(s.fastRules);
            PeerUse peer = peers.get(s.tunnelPeer);
            boolean lastOfPeer = peer != null && peer.users <= 1;
            if (lastOfPeer) {
                write.removes().add(peer.rule);
            }
            writer.write(fast, write);
            if (lastOfPeer) {
                peers.remove(s.tunnelPeer);
            } else if (peer != null) {
                peer.users--;
            }
        } finally {
            peerTurn.unlock();
        }
    }

    /** Withdraws the UE's pause once its buffer is empty, and removes the buffer. */
    private boolean letGo(UeState s) {
        DeviceId fast = settings.fastDevice().orElseThrow();
        try {
            intents.withdraw(s.pause, OWNER);
        } catch (FlowBufException e) {
            if (e.reason() == FlowBufException.Reason.CONFLICT) {
                return false;  // it still holds packets: the next window tries again
            }
            if (e.reason() != FlowBufException.Reason.NOT_FOUND) {
                throw e;
            }
        }
        try {
            buffers.removeBuffer(fast, s.buffer, OWNER, false);
        } catch (FlowBufException e) {
            if (e.reason() != FlowBufException.Reason.NOT_FOUND) {
                LOG.warn("{}: buffer {} not removed: {}", s.ue, s.buffer, e.getMessage());
            }
        }
        s.cleanupPending = false;
        return true;
    }

    private void unpause(UeState s) {
        try {
            letGo(s);
        } catch (FlowBufException e) {
            LOG.warn("{}: pause {} not undone: {}", s.ue, s.pause, e.getMessage());
            s.cleanupPending = true;
        }
    }

    private void demoteAll(String why) {
        for (UeState s : List.copyOf(ues.values())) {
            demote(s.ue, why);
        }
    }

    // ---- the rate window ---------------------------------------------

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("hybrid placement window: {}", e.toString());
        }
    }

    /**
     * One rate window: reads the promoted UEs' counters, demotes those
     * under the heavy-hitter rate for the idle time (and those whose
     * session went), lets go of demoted UEs' buffers that held packets.
     */
    void tick() {
        HybridSettings set = settings;
        if (!set.enabled()) {
            return;
        }
        List<UeState> fast = new ArrayList<>();
        for (UeState s : ues.values()) {
            if (s.phase == UeState.Phase.FAST) {
                fast.add(s);
            } else if (s.phase == UeState.Phase.SLOW && s.cleanupPending) {
                inTurn(s.ue, () -> s.cleanupPending && !letGo(s));
            }
        }
        if (fast.isEmpty()) {
            return;
        }
        Map<Integer, Long> bytes = fastPath.sessionBytes(
                set.fastDevice().orElseThrow(),
                fast.stream().map(s -> s.cell).collect(Collectors.toSet()));
        long now = nanos.getAsLong();
        long heavy = heavyRateBps.getAsLong();
        DeviceId slow = set.slowDevice().orElseThrow();
        for (UeState s : fast) {
            if (store.sessionOf(slow, s.ue).isEmpty()) {
                demote(s.ue, "its session was removed");
                continue;
            }
            Long b = bytes.get(s.cell);
            if (b != null && sample(s, b, now, heavy, set)) {
                demote(s.ue, "under " + heavy + " bit/s for " + set.demoteIdleMs() + " ms");
            }
        }
    }

    /** Takes a counter sample; true when the UE has been cold long enough to demote. */
    private static boolean sample(UeState s, long bytes, long now, long heavy, HybridSettings set) {
        if (s.lastBytes >= 0 && now > s.lastSampleNanos) {
            long delta = Math.max(0, bytes - s.lastBytes);
            s.rateBps = (long) (delta * 8 * 1e9 / (now - s.lastSampleNanos));
            s.rateMeasured = true;
            if (s.rateBps >= heavy) {
                s.underSinceNanos = -1;
            } else if (s.underSinceNanos < 0) {
                s.underSinceNanos = s.lastSampleNanos;
            }
        }
        s.lastBytes = bytes;
        s.lastSampleNanos = now;
        return s.underSinceNanos >= 0
                && now - s.underSinceNanos >= TimeUnit.MILLISECONDS.toNanos(set.demoteIdleMs());
    }

    // ---- helpers -----------------------------------------------------

    private Optional<UpfSessionRecord> sessionOf(Ip4Address ue) {
        Optional<DeviceId> slow = settings.slowDevice();
        if (slow.isEmpty()) {
            return Optional.empty();
        }
        return store.sessionOf(slow.get(), ue);
    }

    private static FlowFilter toUe(Ip4Address ue) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf(ue, 32)).build();
    }

    private <T> T inTurn(Ip4Address ue, Supplier<T> change) {
        return StripedTurns.inTurns(turns, List.of(ue), change);
    }


    /** When a report came and was taken up (ns on the manager's clock), for the log. */
    private static final class Timing {
        /** The digest's arrival: the move is timed from it. */
        final long start;
        final long dispatched;
        /** The report's trip from the switch to the controller (ns), -1 unknown. */
        final long inFlight;
        long begun;

        Timing(long start, long dispatched, long inFlight) {
            this.start = start;
            this.dispatched = dispatched;
            this.inFlight = inFlight;
            this.begun = dispatched;
        }
    }

    /** A fast-path tunnel peer entry and the promoted UEs that name it (in the peer's turn). */
    private static final class PeerUse {
        final FlowRule rule;
        int users;

        PeerUse(FlowRule rule) {
            this.rule = rule;
        }
    }

    @Override
    public void close() {
        ScheduledFuture<?> t = tick;
        if (t != null) {
            t.cancel(false);
        }
        timer.shutdownNow();
    }
}
