/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.flowbuf.app.task.StripedTurns;
import org.flowbuf.pipeconf.CcP4Names;
import com.google.common.util.concurrent.Striped;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The congestion service: registers latency-critical flows (planned by
 * {@link CcPlanner}, written by {@link CcInstaller}) and answers the
 * switch-over digests: the backup the source switch moved the flow to is
 * the primary now, and a new backup is installed when the topology has one.
 * A flow registered with orderedSwitchover also gets a merge buffer
 * ({@link OrderedMerges}), re-armed after every switch-over. PROBING flows
 * are probed by a {@link ProbeScheduler}, which asks for the same move when
 * a probe is late or missing.
 */
public final class CongestionManager implements CongestionService {

    private static final Logger LOG = LoggerFactory.getLogger(CongestionManager.class);

    private final CcPlanner planner;
    private final CcInstaller installer;
    private final Clock clock;
    private final Consumer<SwitchOver> switchOvers;
    private final OrderedMerges merges;
    private final ProbeScheduler probes;
    private final Map<Long, Registered> flows = new ConcurrentSkipListMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong generations =
            new AtomicLong(new SecureRandom().nextInt() & 0xffffffffL);
    /** Flow indexes held by registered flows and registrations under way. */
    private final Set<Integer> indexes = ConcurrentHashMap.newKeySet();
    /**
     * Turns (Guava striped locks): a registration takes its 5-tuple's and
     * its id's, every later change of a flow its id's; one flow's changes
     * are ordered, different flows' run in parallel with their writes.
     */
    private final Striped<Lock> turns = Striped.lazyWeakLock(1024);

    /**
     * Creates the service.
     *
     * @param appId       owner of the entries
     * @param hosts       where hosts are
     * @param paths       the path computation
     * @param policy      the threshold derivation
     * @param writer      the switches' writer
     * @param clock       time of switch-overs
     * @param switchOvers told of every switch-over (an event sink)
     */
    public CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                             ThresholdPolicy policy, CcWriter writer, Clock clock,
                             Consumer<SwitchOver> switchOvers) {
        this(appId, hosts, paths, policy, writer, clock, switchOvers, null, null);
    }

    /**
     * Creates the service with PROBING mode.
     *
     * @param appId       owner of the entries
     * @param hosts       where hosts are
     * @param paths       the path computation
     * @param policy      the threshold derivation
     * @param writer      the switches' writer
     * @param clock       time of switch-overs
     * @param switchOvers told of every switch-over (an event sink)
     * @param probes      the probe scheduler, null where the controller has no
     *                    packet-out (PROBING flows are then refused)
     */
    public CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                             ThresholdPolicy policy, CcWriter writer, Clock clock,
                             Consumer<SwitchOver> switchOvers, ProbeScheduler probes) {
        this(appId, hosts, paths, policy, writer, clock, switchOvers, null, probes);
    }

    /**
     * Creates the service with PROBING mode and ordered switch-overs: merge
     * buffers on the merge switches' buffer agents.
     *
     * @param appId       owner of the entries
     * @param hosts       where hosts are
     * @param paths       the path computation
     * @param policy      the threshold derivation
     * @param writer      the switches' writer
     * @param clock       time of switch-overs
     * @param switchOvers told of every switch-over (an event sink)
     * @param probes      the probe scheduler, null where the controller has no
     *                    packet-out (PROBING flows are then refused)
     * @param buffers     the Buffer Service
     * @param intents     its intent level
     * @param links       the topology's links (to find a path's port into the merge switch)
     * @param boundMs     how long a merge buffer waits for an end marker, read
     *                    at each switch-over
     */
    public CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                             ThresholdPolicy policy, CcWriter writer, Clock clock,
                             Consumer<SwitchOver> switchOvers, ProbeScheduler probes,
                             BufferService buffers, FlowBufIntentService intents,
                             Supplier<List<Link>> links, LongSupplier boundMs) {
        this(appId, hosts, paths, policy, writer, clock, switchOvers,
             new OrderedMerges(buffers, intents, OrderedMerges.peersOf(links), boundMs), probes);
    }

    private CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                              ThresholdPolicy policy, CcWriter writer, Clock clock,
                              Consumer<SwitchOver> switchOvers, OrderedMerges merges,
                              ProbeScheduler probes) {
        CcRules rules = new CcRules(appId);
        this.planner = new CcPlanner(hosts, paths, policy);
        this.installer = new CcInstaller(rules, writer);
        this.clock = clock;
        this.switchOvers = switchOvers;
        this.merges = merges;
        this.probes = probes;
        if (probes != null) {
            probes.rerouteBy(this::probeReroute);
        }
    }

    @Override
    public LatencyCriticalFlow register(CcFlowRequest request) {
        if (request.mode() == CongestionMode.PROBING && probes == null) {
            throw FlowBufException.invalid("mode PROBING needs packet-out and packet-in, which "
                                                   + "this controller has not");
        }
        FlowFilter packets = request.filter().withoutInPort();
        long id = nextId.getAndIncrement();
        return StripedTurns.inTurns(turns, List.of(List.of("5-tuple", packets), id),
                                    () -> registerInTurn(request, packets, id));
    }

    private LatencyCriticalFlow registerInTurn(CcFlowRequest request, FlowFilter packets,
                                               long id) {
        flows.values().stream().filter(r -> r.layout.filter().equals(packets)).findFirst()
                .ifPresent(r -> {
                    throw FlowBufException.conflict("flow %d has the same 5-tuple", r.flow.id());
                });
        int index = claimIndex();
        try {
            return install(request, id, index);
        } catch (RuntimeException e) {
            indexes.remove(index);
            throw e;
        }
    }

    private LatencyCriticalFlow install(CcFlowRequest request, long id, int index) {
        CcLayout layout = planner.plan(request, index).withGeneration(nextGeneration());
        if (request.orderedSwitchover()) {
            layout = ordered(id, request, layout);
        }
        try {
            installer.install(layout);
        } catch (FlowBufException e) {
            if (merges != null) {
                merges.close(id);
            }
            throw e;
        }
        LatencyCriticalFlow flow = new LatencyCriticalFlow(
                id, index, request, layout.primary(), layout.backup().orElse(null),
                layout.thresholds(), List.of());
        flows.put(flow.id(), new Registered(flow, layout));
        if (request.mode() == CongestionMode.PROBING) {
            probes.start(flow.id(), index, layout.filter(), layout.dstMac(),
                         request.probeIntervalMs(), request.budgetUs(), layout.source(),
                         layout.primary().first().outPort());
        }
        LOG.info("latency-critical flow {} (index {}): primary {}, backup {}", flow.id(), index,
                 flow.primary(), flow.backup().map(Object::toString).orElse("none"));
        return withState(flows.get(flow.id()));
    }

    /** The layout of an ordered flow, its merge buffer set up. */
    private CcLayout ordered(long id, CcFlowRequest request, CcLayout layout) {
        if (merges == null) {
            throw FlowBufException.invalid("orderedSwitchover: this controller has no Buffer "
                                                   + "Service for merge buffers");
        }
        if (request.mode() != CongestionMode.DATAPLANE || layout.backup().isEmpty()) {
            throw FlowBufException.invalid("orderedSwitchover needs mode DATAPLANE and a backup "
                                                   + "path");
        }
        return layout.ordered(merges.open(id, layout));
    }

    // The flow as registered, with what its probes and its merge buffer found now.
    private LatencyCriticalFlow withState(Registered r) {
        LatencyCriticalFlow flow = r.flow;
        if (probes != null) {
            flow = probes.stats(flow.id()).map(flow::withProbes).orElse(flow);
        }
        if (merges != null) {
            flow = merges.state(flow.id()).map(flow::withOrdered).orElse(flow);
        }
        return flow;
    }

    @Override
    public void remove(long id) {
        StripedTurns.inTurn(turns, id, () -> {
            removeInTurn(id);
            return null;
        });
    }

    private void removeInTurn(long id) {
        Registered r = flows.get(id);
        if (r == null) {
            throw FlowBufException.notFound("no latency-critical flow %d", id);
        }
        if (probes != null) {
            probes.stop(id);
        }
        installer.remove(r.layout);
        flows.remove(id);
        indexes.remove(r.layout.index());
        if (merges != null) {
            merges.close(id);
        }
    }

    @Override
    public Optional<LatencyCriticalFlow> flow(long id) {
        return Optional.ofNullable(flows.get(id)).map(this::withState);
    }

    @Override
    public Collection<LatencyCriticalFlow> flows() {
        List<LatencyCriticalFlow> all = new ArrayList<>();
        flows.values().forEach(r -> all.add(withState(r)));
        return all;
    }

    /**
     * A switch reported a switch-over (its cc_digest_t): the flow's backup is
     * its primary from now on; a new backup disjoint from it is installed
     * when the topology has one, and the switch-over is recorded.
     *
     * The record's time is the digest's arrival: the controller knew of the
     * switch-over then, before it waited for the flow's turn and wrote the new backup.
     *
     * @param device the switch the digest came from
     * @param digest the digest
     */
    public void switchedOver(DeviceId device, CcDigest digest) {
        switchedOver(device, digest, clock.instant());
    }

    /**
     * The same, for a digest that came at a known time (taken off the
     * switch's stream before it waited in a queue).
     *
     * @param device the switch the digest came from
     * @param digest the digest
     * @param came   when it came, on this manager's clock
     */
    public void switchedOver(DeviceId device, CcDigest digest, Instant came) {
        Optional<Registered> found = flows.values().stream()
                .filter(r -> r.layout.index() == digest.index()).findFirst();
        if (found.isEmpty()) {
            LOG.warn("{}: switch-over digest for no registered flow: {}", device, digest);
            return;
        }
        long id = found.get().flow.id();
        StripedTurns.inTurn(turns, id, () -> {
            Registered r = flows.get(id);
            if (r == null || r.layout.index() != digest.index()) {
                LOG.warn("{}: switch-over digest for flow {}, removed since: {}", device, id,
                         digest);
            } else {
                switchedOverInTurn(r, device, digest, came);
            }
            return null;
        });
    }

    private void switchedOverInTurn(Registered r, DeviceId device, CcDigest digest,
                                    Instant came) {
        CcLayout old = r.layout;
        if (!device.equals(old.source()) || old.backup().isEmpty()
                || digest.slot() == old.slot() || old.mode() == CongestionMode.PROBING) {
            // Not the source, or already handled: only the source has two slots.
            LOG.warn("{}: switch-over digest that changes nothing for flow {}: {}", device,
                     r.flow.id(), digest);
            return;
        }
        moveToBackup(r, device, digest.queueUs(), digest.procUs(), SwitchOver.Cause.DIGEST, came);
    }

    /**
     * A packet-in that may be a PROBING flow's probe, back from its far-end
     * switch (not synchronized: it is timed on arrival, handled later).
     *
     * @param device the switch that punted it
     * @param frame  the frame
     * @return whether it was a probe (else it is someone else's)
     */
    public boolean probePacketIn(DeviceId device, byte[] frame) {
        return probes != null && probes.packetIn(device, frame);
    }

    /**
     * A PROBING flow's probe was late or missing: the controller moves it
     * to its backup (the slot it takes gets the backup's next hop) and
     * keeps the same books as for a digest.
     *
     * @param id      the flow
     * @param cause   PROBE_LATE or PROBE_MISSING
     * @param delayUs the late probe's one-way time (recorded as its queuing delay), or 0
     */
    void probeReroute(long id, SwitchOver.Cause cause, long delayUs) {
        reroute(id, cause, delayUs, clock.instant());
    }

    private void reroute(long id, SwitchOver.Cause cause, long delayUs, Instant at) {
        StripedTurns.inTurn(turns, id, () -> {
            rerouteInTurn(id, cause, delayUs, at);
            return null;
        });
    }

    private void rerouteInTurn(long id, SwitchOver.Cause cause, long delayUs, Instant at) {
        Registered r = flows.get(id);
        if (r == null || r.layout.mode() != CongestionMode.PROBING) {
            return;  // removed while the probe was out
        }
        if (r.layout.backup().isEmpty()) {
            LOG.warn("latency-critical flow {}: {} but no backup to move to", id, cause);
            return;
        }
        moveToBackup(r, r.layout.source(), delayUs, 0, cause, at);
        probes.route(id, r.layout.source(), r.layout.primary().first().outPort());
    }

    /** The flow's backup is its primary now; a new backup where there is one; recorded. */
    private void moveToBackup(Registered r, DeviceId device, long queueUs, long procUs,
                              SwitchOver.Cause cause, Instant at) {
        CcPath primary = r.layout.backup().get();
        CcPath backup = planner.backupFor(primary).orElse(null);
        CcLayout next = promote(r, primary, backup);
        SwitchOver record = new SwitchOver(device, queueUs, procUs, at,
                                           next.backup().isPresent(), cause);
        r.layout = next;
        r.flow = r.flow.switchedOver(next.primary(), next.backup().orElse(null),
                                     next.thresholds(), record);
        LOG.info("latency-critical flow {}: {}; primary now {}, backup {}", r.flow.id(), record,
                 next.primary(), next.backup().map(Object::toString).orElse("none"));
        if (merges != null && next.sink().isPresent()) {
            merges.switchedOver(r.flow.id(), next);
        }
        switchOvers.accept(record);
    }

    /**
     * Writes every flow's entries again on a switch that restarted with
     * empty tables and registers. A source switch forwards by slot 0 again,
     * so its flows are laid out with the primary there. A switch that kept
     * its entries refuses the inserts; its flows are left as they are.
     *
     * @param device the switch
     * @return how many flows were written again
     */
    public int restore(DeviceId device) {
        int restored = 0;
        for (long id : flows.keySet()) {
            boolean written = StripedTurns.inTurn(turns, id, () -> restoreInTurn(id, device));
            restored += written ? 1 : 0;
        }
        return restored;
    }

    /**
     * The registered flows' entries on one switch, as they are written now
     * (read without the flows' turns: a change in flight writes its own).
     *
     * @param device the switch
     * @return the entries
     */
    public List<FlowRule> entries(DeviceId device) {
        List<FlowRule> entries = new ArrayList<>();
        flows.values().forEach(r -> entries.addAll(installer.entries(r.layout, device)));
        return entries;
    }

    // One flow written again, in its turn (it may have been removed meanwhile).
    private boolean restoreInTurn(long id, DeviceId device) {
        Registered r = flows.get(id);
        if (r == null) {
            return false;
        }
        CcLayout layout = device.equals(r.layout.source()) ? r.layout.inSlotZero() : r.layout;
        try {
            if (installer.restore(layout, device)) {
                r.layout = layout;
                return true;
            }
        } catch (FlowBufException e) {
            LOG.warn("{}: latency-critical flow {} not written again: {}", device,
                     r.flow.id(), e.getMessage());
        }
        return false;
    }

    /**
     * The layout after a switch-over, installed: with the new backup when
     * it can be written, else without one (the flow keeps forwarding on
     * its new primary either way). The data plane moved a DATAPLANE flow
     * to the other slot; the controller moves a PROBING one within its slot.
     */
    private CcLayout promote(Registered r, CcPath primary, CcPath backup) {
        CcLayout old = r.layout;
        boolean bySlot = old.mode() != CongestionMode.PROBING;
        if (backup != null) {
            Map<DeviceId, CcThresholds> limits = thresholds(r, primary, backup);
            CcLayout next = bySlot ? old.promoted(backup, limits) : old.rerouted(backup, limits);
            try {
                installer.change(old, next);
                return next;
            } catch (FlowBufException e) {
                LOG.warn("flow {}: new backup {} not installed: {}", r.flow.id(), backup,
                         e.getMessage());
            }
        }
        Map<DeviceId, CcThresholds> limits = thresholds(r, primary, null);
        CcLayout next = bySlot ? old.promoted(null, limits) : old.rerouted(null, limits);
        installer.change(old, next);
        return next;
    }

    private Map<DeviceId, CcThresholds> thresholds(Registered r, CcPath primary, CcPath backup) {
        try {
            return planner.thresholds(r.flow.request(), primary, backup);
        } catch (FlowBufException e) {
            // The budget no longer fits the new path at idle: keep the flow, say so.
            LOG.warn("flow {}: {}; thresholds kept at the budget", r.flow.id(), e.getMessage());
            return r.layout.thresholds();
        }
    }

    /** Stops the merge buffers' worker (the buffers stay with their flows). */
    public void shutdown() {
        if (merges != null) {
            merges.close();
        }
    }

    /**
     * A registration's own generation: consecutive from a random start, so
     * that a controller that restarts does not take the generation that a
     * reused index's cells already have (a chance of about 1 in 2^32).
     */
    private long nextGeneration() {
        return generations.getAndUpdate(g -> (g + 1) & 0xffffffffL);
    }

    // The lowest index no flow holds, claimed with one atomic add.
    private int claimIndex() {
        for (int i = 0; i < CcP4Names.FLOW_CELLS; i++) {
            if (indexes.add(i)) {
                return i;
            }
        }
        throw new FlowBufException(FlowBufException.Reason.EXHAUSTED, String.format(
                "every one of the %d latency-critical flow indexes is in use",
                CcP4Names.FLOW_CELLS));
    }

    /** A flow and how it is laid out now. */
    private static final class Registered {
        // Changed in the flow's turn, read without it.
        private volatile LatencyCriticalFlow flow;
        private volatile CcLayout layout;

        Registered(LatencyCriticalFlow flow, CcLayout layout) {
            this.flow = flow;
            this.layout = layout;
        }
    }
}
