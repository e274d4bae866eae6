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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
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
    /** The flows, their indexes and ids: in ONOS, the cluster's. */
    private final CcFlowStore store;
    /** Whether this instance acts for a flow's source switch (in ONOS: masters it). */
    private final Predicate<DeviceId> leads;
    private final AtomicLong generations =
            new AtomicLong(new SecureRandom().nextInt() & 0xffffffffL);
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
        this(appId, hosts, paths, policy, writer, clock, switchOvers, null, null,
             new InMemoryCcFlowStore(), device -> true);
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
        this(appId, hosts, paths, policy, writer, clock, switchOvers, null, probes,
             new InMemoryCcFlowStore(), device -> true);
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
             new OrderedMerges(buffers, intents, OrderedMerges.peersOf(links), boundMs), probes,
             new InMemoryCcFlowStore(), device -> true);
    }

    /**
     * Creates the service as ONOS runs it: its flows in a given store (the
     * cluster's), acting only for the flows whose source switch it leads.
     *
     * @param appId       owner of the entries
     * @param hosts       where hosts are
     * @param paths       the path computation
     * @param policy      the threshold derivation
     * @param writer      the switches' writer
     * @param clock       time of switch-overs
     * @param switchOvers told of every switch-over (an event sink)
     * @param probes      the probe scheduler
     * @param buffers     the Buffer Service
     * @param intents     its intent level
     * @param links       the topology's links
     * @param boundMs     how long a merge buffer waits for an end marker
     * @param store       the flows, their indexes and ids
     * @param leads       whether this instance acts for a source switch (its master)
     */
    public CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                             ThresholdPolicy policy, CcWriter writer, Clock clock,
                             Consumer<SwitchOver> switchOvers, ProbeScheduler probes,
                             BufferService buffers, FlowBufIntentService intents,
                             Supplier<List<Link>> links, LongSupplier boundMs,
                             CcFlowStore store, Predicate<DeviceId> leads) {
        this(appId, hosts, paths, policy, writer, clock, switchOvers,
             new OrderedMerges(buffers, intents, OrderedMerges.peersOf(links), boundMs), probes,
             store, leads);
    }

    /**
     * Creates the service without merge buffers on a given store, acting for
     * the source switches it leads (tests: instances of one cluster).
     *
     * @param appId       owner of the entries
     * @param hosts       where hosts are
     * @param paths       the path computation
     * @param policy      the threshold derivation
     * @param writer      the switches' writer
     * @param clock       time of switch-overs
     * @param store       the flows, their indexes and ids
     * @param leads       whether this instance acts for a source switch
     */
    CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                      ThresholdPolicy policy, CcWriter writer, Clock clock, CcFlowStore store,
                      Predicate<DeviceId> leads) {
        this(appId, hosts, paths, policy, writer, clock, s -> { }, null, null, store, leads);
    }

    private CongestionManager(ApplicationId appId, CcHosts hosts, DisjointPathFinder paths,
                              ThresholdPolicy policy, CcWriter writer, Clock clock,
                              Consumer<SwitchOver> switchOvers, OrderedMerges merges,
                              ProbeScheduler probes, CcFlowStore store,
                              Predicate<DeviceId> leads) {
        CcRules rules = new CcRules(appId);
        this.store = store;
        this.leads = leads;
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
        mustLead(planner.source(request), "registers a flow from it");
        long id = store.nextId();
        return StripedTurns.inTurns(turns, List.of(List.of("5-tuple", packets), id),
                                    () -> registerInTurn(request, packets, id));
    }

    private LatencyCriticalFlow registerInTurn(CcFlowRequest request, FlowFilter packets,
                                               long id) {
        store.values().stream().filter(r -> r.layout().filter().equals(packets)).findFirst()
                .ifPresent(r -> {
                    throw FlowBufException.conflict("flow %d has the same 5-tuple", r.id());
                });
        int index = claimIndex(id);
        try {
            return install(request, id, index);
        } catch (RuntimeException e) {
            store.releaseIndex(index);
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
        CcRecord record = new CcRecord(flow, layout);
        store.put(record);
        if (request.mode() == CongestionMode.PROBING) {
            startProbes(record);
        }
        LOG.info("latency-critical flow {} (index {}): primary {}, backup {}", flow.id(), index,
                 flow.primary(), flow.backup().map(Object::toString).orElse("none"));
        return withState(record);
    }

    private void startProbes(CcRecord r) {
        CcLayout layout = r.layout();
        probes.start(r.id(), layout.index(), layout.filter(), layout.dstMac(),
                     r.flow().request().probeIntervalMs(), r.flow().request().budgetUs(),
                     layout.source(), layout.primary().first().outPort());
    }

    /**
     * This instance leads a flow's source switch now (it became its master:
     * the one before died, or ONOS restarted): it takes on what only the
     * leader runs, the probes of its PROBING flows there and the merge
     * buffers of its ordered flows (their switch-over reports come here now).
     * Their records, paths and indexes are the store's already; a flow it
     * probes, or whose merge buffer it runs, is left.
     *
     * @param source the source switch
     * @return how many probes and merge buffers it took on
     */
    public int takeOver(DeviceId source) {
        if (!leads.test(source)) {
            return 0;
        }
        int taken = 0;
        for (CcRecord r : store.values()) {
            if (!r.layout().source().equals(source)) {
                continue;
            }
            if (probes != null && r.layout().mode() == CongestionMode.PROBING
                    && probes.stats(r.id()).isEmpty()) {
                startProbes(r);
                taken++;
            }
            if (merges != null && r.layout().sink().isPresent()
                    && merges.adopt(r.id(), r.layout())) {
                taken++;
            }
        }
        return taken;
    }

    /** Only the instance that leads a flow's source switch changes the flow. */
    private void mustLead(DeviceId source, String what) {
        if (!leads.test(source)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, String.format(
                    "this instance is not the master of %s, the flow's source switch; only its "
                            + "master %s: ask that instance", source, what));
        }
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
    private LatencyCriticalFlow withState(CcRecord r) {
        LatencyCriticalFlow flow = r.flow();
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
        CcRecord r = store.get(id).orElseThrow(
                () -> FlowBufException.notFound("no latency-critical flow %d", id));
        mustLead(r.layout().source(), "removes it");
        if (probes != null) {
            probes.stop(id);
        }
        installer.remove(r.layout());
        store.remove(id);
        store.releaseIndex(r.layout().index());
        if (merges != null) {
            merges.close(id);
        }
    }

    @Override
    public Optional<LatencyCriticalFlow> flow(long id) {
        return store.get(id).map(this::withState);
    }

    @Override
    public Collection<LatencyCriticalFlow> flows() {
        List<LatencyCriticalFlow> all = new ArrayList<>();
        store.values().forEach(r -> all.add(withState(r)));
        all.sort(Comparator.comparingLong(LatencyCriticalFlow::id));
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
        Optional<CcRecord> found = store.values().stream()
                .filter(r -> r.layout().index() == digest.index()).findFirst();
        if (found.isEmpty()) {
            LOG.warn("{}: switch-over digest for no registered flow: {}", device, digest);
            return;
        }
        long id = found.get().id();
        if (!leads.test(found.get().layout().source())) {
            LOG.warn("{}: switch-over digest for flow {}, whose source another instance "
                             + "leads: {}", device, id, digest);
            return;
        }
        StripedTurns.inTurn(turns, id, () -> {
            CcRecord r = store.get(id).orElse(null);
            if (r == null || r.layout().index() != digest.index()) {
                LOG.warn("{}: switch-over digest for flow {}, removed since: {}", device, id,
                         digest);
            } else {
                switchedOverInTurn(r, device, digest, came);
            }
            return null;
        });
    }

    private void switchedOverInTurn(CcRecord r, DeviceId device, CcDigest digest,
                                    Instant came) {
        CcLayout old = r.layout();
        if (!device.equals(old.source()) || old.backup().isEmpty()
                || digest.slot() == old.slot() || old.mode() == CongestionMode.PROBING) {
            // Not the source, or already handled: only the source has two slots.
            LOG.warn("{}: switch-over digest that changes nothing for flow {}: {}", device,
                     r.id(), digest);
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
        CcRecord r = store.get(id).orElse(null);
        if (r == null || r.layout().mode() != CongestionMode.PROBING) {
            return;  // removed while the probe was out
        }
        if (r.layout().backup().isEmpty()) {
            LOG.warn("latency-critical flow {}: {} but no backup to move to", id, cause);
            return;
        }
        CcLayout now = moveToBackup(r, r.layout().source(), delayUs, 0, cause, at);
        probes.route(id, now.source(), now.primary().first().outPort());
    }

    /** The flow's backup is its primary now; a new backup where there is one; recorded. */
    private CcLayout moveToBackup(CcRecord r, DeviceId device, long queueUs, long procUs,
                                  SwitchOver.Cause cause, Instant at) {
        CcPath primary = r.layout().backup().get();
        CcPath backup = planner.backupFor(primary).orElse(null);
        CcLayout next = promote(r, primary, backup);
        SwitchOver record = new SwitchOver(device, queueUs, procUs, at,
                                           next.backup().isPresent(), cause);
        store.put(r.with(r.flow().switchedOver(next.primary(), next.backup().orElse(null),
                                               next.thresholds(), record), next));
        LOG.info("latency-critical flow {}: {}; primary now {}, backup {}", r.id(), record,
                 next.primary(), next.backup().map(Object::toString).orElse("none"));
        if (merges != null && next.sink().isPresent()) {
            merges.switchedOver(r.id(), next);
        }
        switchOvers.accept(record);
        return next;
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
        for (CcRecord each : store.values()) {
            long id = each.id();
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
        store.values().forEach(r -> entries.addAll(installer.entries(r.layout(), device)));
        return entries;
    }

    // One flow written again, in its turn (it may have been removed meanwhile).
    private boolean restoreInTurn(long id, DeviceId device) {
        CcRecord r = store.get(id).orElse(null);
        if (r == null) {
            return false;
        }
        CcLayout layout = device.equals(r.layout().source()) ? r.layout().inSlotZero()
                : r.layout();
        try {
            if (installer.restore(layout, device)) {
                store.put(r.with(layout));
                return true;
            }
        } catch (FlowBufException e) {
            LOG.warn("{}: latency-critical flow {} not written again: {}", device, r.id(),
                     e.getMessage());
        }
        return false;
    }

    /**
     * The layout after a switch-over, installed: with the new backup when
     * it can be written, else without one (the flow keeps forwarding on
     * its new primary either way). The data plane moved a DATAPLANE flow
     * to the other slot; the controller moves a PROBING one within its slot.
     */
    private CcLayout promote(CcRecord r, CcPath primary, CcPath backup) {
        CcLayout old = r.layout();
        boolean bySlot = old.mode() != CongestionMode.PROBING;
        if (backup != null) {
            Map<DeviceId, CcThresholds> limits = thresholds(r, primary, backup);
            CcLayout next = bySlot ? old.promoted(backup, limits) : old.rerouted(backup, limits);
            try {
                installer.change(old, next);
                return next;
            } catch (FlowBufException e) {
                LOG.warn("flow {}: new backup {} not installed: {}", r.id(), backup,
                         e.getMessage());
            }
        }
        Map<DeviceId, CcThresholds> limits = thresholds(r, primary, null);
        CcLayout next = bySlot ? old.promoted(null, limits) : old.rerouted(null, limits);
        installer.change(old, next);
        return next;
    }

    private Map<DeviceId, CcThresholds> thresholds(CcRecord r, CcPath primary, CcPath backup) {
        try {
            return planner.thresholds(r.flow().request(), primary, backup);
        } catch (FlowBufException e) {
            // The budget no longer fits the new path at idle: keep the flow, say so.
            LOG.warn("flow {}: {}; thresholds kept at the budget", r.id(), e.getMessage());
            return r.layout().thresholds();
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

    // The lowest index no flow holds, claimed atomically (cluster-wide in ONOS).
    private int claimIndex(long id) {
        for (int i = 0; i < CcP4Names.FLOW_CELLS; i++) {
            if (store.claimIndex(i, id)) {
                return i;
            }
        }
        throw new FlowBufException(FlowBufException.Reason.EXHAUSTED, String.format(
                "every one of the %d latency-critical flow indexes is in use",
                CcP4Names.FLOW_CELLS));
    }
}
