/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.LmmService;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.packet.PacketEmitter;
import org.flowbuf.app.packet.PacketServiceEmitter;
import org.flowbuf.app.pi.FlowRuleServiceSteeringWriter;
import org.flowbuf.app.task.StripedTurns;
import com.google.common.util.concurrent.Striped;
import org.onlab.util.Tools;
import org.onosproject.cluster.ClusterService;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.packet.PacketService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * LMM handoffs as an ONOS component (and, constructed directly, in the
 * embedded host). Steps that react to the end marker run on a few worker
 * threads, never on the agent's transport thread.
 *
 * <p>Per-UE turns instead of a manager lock: every step of a handoff (start,
 * attach, a marker report, the marker's timeout) runs in its UE's turn (a
 * Guava striped lock keyed by the downlink), which orders the steps of one
 * UE and guards what a UE has (its handoff under way, the buffer it lives
 * in); handoffs of different UEs run in parallel with their calls.
 *
 * <p>In a cluster, a handoff's run (its marker watches) lives on the
 * instance that started it. When that instance dies, the new master of the
 * plan's source device adopts its buffered handoffs under way
 * ({@link #takeOver}): a DETACHED one can then be attached through it, an
 * ATTACHED one has its end marker sent and watched again and completes as
 * one of its own would (or its marker times out and the new path is
 * released without the ordering guarantee): nothing is held forever.
 */
@Component(immediate = true, service = LmmService.class)
public class LmmManager implements LmmService {

    /** How long the end marker may take through both old-path buffers. */
    static final long MARKER_TIMEOUT_MS = 3000;
    /** How soon an adopted handoff's buffers are watched again after a refusal. */
    static final long REWATCH_MS = 100;
    /** Buffers that report the end marker: the source's and the target's first. */
    static final int MARKER_REPORTERS = 2;
    private static final String APP_NAME = "org.flowbuf.app";
    /** Threads that complete handoffs: one UE's drain wait does not hold up another's. */
    private static final int WORKERS = 4;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ControllerBufferingService controllerBuffering;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    private long markerTimeoutMs = MARKER_TIMEOUT_MS;
    private AnchorPaths anchor;
    private PlanCheck planCheck;
    private PacketEmitter packets;
    private ScheduledExecutorService worker;
    /** Handoff records and residents: in ONOS, the cluster's (another instance can take over). */
    private LmmStore store;
    /** Who this instance is, who lives, what it masters: whose runs it adopts. */
    private RunnerCluster cluster;
    /** ONOS: when this instance adopts the runs of a gone one. */
    private RunAdoptions adoptions;
    // Completed handoffs beyond these are forgotten; failed ones are kept
    // for the operator (they may have left something behind).
    private final Retention<Long> completed = new Retention<>(Retention.DEFAULT_KEPT);
    // A run holds this instance's marker watches: it cannot move to another instance.
    private final Map<Long, HandoffRun> runs = new ConcurrentHashMap<>();
    /** Turns of UEs (by downlink): many more stripes than UEs hand off at once. */
    private final Striped<Lock> ueTurns = Striped.lazyWeakLock(1024);

    /** For OSGi. */
    public LmmManager() {
    }

    /**
     * Creates the service on the Buffer Service's APIs (embedded host, tests).
     * The embedded host has no model of a switch's ports: a plan's devices
     * and ports are not checked, its eNBs' agents are.
     *
     * @param intentService intent API
     * @param bufferService task API
     * @param controllerBuffering the controller-buffering baseline
     * @param rules         writer of the anchor's path rule
     * @param packets       packet-out for the end marker
     */
    public LmmManager(FlowBufIntentService intentService, BufferService bufferService,
                      ControllerBufferingService controllerBuffering,
                      SteeringRuleWriter rules, PacketEmitter packets) {
        this(intentService, bufferService, controllerBuffering, rules, packets,
             MARKER_TIMEOUT_MS, new InMemoryLmmStore(), PlanCheck.Network.ANY);
    }

    /**
     * As above, on a network whose devices and ports a plan is checked against (tests).
     *
     * @param intentService       intent API
     * @param bufferService       task API
     * @param controllerBuffering the controller-buffering baseline
     * @param rules               writer of the anchor's path rule
     * @param packets             packet-out for the end marker
     * @param network             the network's devices and ports
     */
    LmmManager(FlowBufIntentService intentService, BufferService bufferService,
               ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
               PacketEmitter packets, PlanCheck.Network network) {
        this(intentService, bufferService, controllerBuffering, rules, packets,
             MARKER_TIMEOUT_MS, new InMemoryLmmStore(), network);
    }

    /**
     * As above, with another marker timeout (tests).
     *
     * @param intentService   intent API
     * @param bufferService   task API
     * @param controllerBuffering the controller-buffering baseline
     * @param rules           writer of the anchor's path rule
     * @param packets         packet-out for the end marker
     * @param markerTimeoutMs how long to wait for the end marker
     */
    LmmManager(FlowBufIntentService intentService, BufferService bufferService,
               ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
               PacketEmitter packets, long markerTimeoutMs) {
        this(intentService, bufferService, controllerBuffering, rules, packets, markerTimeoutMs,
             new InMemoryLmmStore());
    }

    /**
     * As above, on a given store (tests: two instances on one cluster's storage).
     *
     * @param intentService   intent API
     * @param bufferService   task API
     * @param controllerBuffering the controller-buffering baseline
     * @param rules           writer of the anchor's path rule
     * @param packets         packet-out for the end marker
     * @param markerTimeoutMs how long to wait for the end marker
     * @param store           the handoffs' records and the residents
     */
    LmmManager(FlowBufIntentService intentService, BufferService bufferService,
               ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
               PacketEmitter packets, long markerTimeoutMs, LmmStore store) {
        this(intentService, bufferService, controllerBuffering, rules, packets, markerTimeoutMs,
             store, RunnerCluster.SINGLE);
    }

    /**
     * As above, as an instance of a cluster (tests: takeover by a new master).
     *
     * @param intentService   intent API
     * @param bufferService   task API
     * @param controllerBuffering the controller-buffering baseline
     * @param rules           writer of the anchor's path rule
     * @param packets         packet-out for the end marker
     * @param markerTimeoutMs how long to wait for the end marker
     * @param store           the handoffs' records and the residents
     * @param cluster         this instance, the others' liveness, its mastership
     */
    LmmManager(FlowBufIntentService intentService, BufferService bufferService,
               ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
               PacketEmitter packets, long markerTimeoutMs, LmmStore store,
               RunnerCluster cluster) {
        this(intentService, bufferService, controllerBuffering, rules, packets, markerTimeoutMs,
             store, PlanCheck.Network.ANY, cluster);
    }

    private LmmManager(FlowBufIntentService intentService, BufferService bufferService,
                       ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
                       PacketEmitter packets, long markerTimeoutMs, LmmStore store,
                       PlanCheck.Network network) {
        this(intentService, bufferService, controllerBuffering, rules, packets, markerTimeoutMs,
             store, network, RunnerCluster.SINGLE);
    }

    private LmmManager(FlowBufIntentService intentService, BufferService bufferService,
                       ControllerBufferingService controllerBuffering, SteeringRuleWriter rules,
                       PacketEmitter packets, long markerTimeoutMs, LmmStore store,
                       PlanCheck.Network network, RunnerCluster cluster) {
        this.intentService = intentService;
        this.bufferService = bufferService;
        this.controllerBuffering = controllerBuffering;
        this.markerTimeoutMs = markerTimeoutMs;
        start(rules, packets, store, network, cluster);
    }

    @Activate
    protected void activate() {
        start(new FlowRuleServiceSteeringWriter(coreService.registerApplication(APP_NAME),
                                                flowRuleService, Duration.ofSeconds(5)),
              new PacketServiceEmitter(packetService), new DistributedLmmStore(storageService),
              PlanCheck.Network.of(deviceService),
              RunnerCluster.of(clusterService, mastershipService));
        adoptions = new RunAdoptions(mastershipService, clusterService, cluster, this::takeOver,
                                     "LMM handoffs");
        adoptions.start();
    }

    private void start(SteeringRuleWriter rules, PacketEmitter emitter, LmmStore lmmStore,
                       PlanCheck.Network network, RunnerCluster runnerCluster) {
        this.store = lmmStore;
        this.cluster = runnerCluster;
        this.anchor = new AnchorPaths(rules);
        this.planCheck = new PlanCheck(network, bufferService::getDevices);
        this.packets = emitter;
        this.worker = Executors.newScheduledThreadPool(
                WORKERS, Tools.groupedThreads("flowbuf/lmm", "worker-%d"));
    }

    /** Stops the worker and ends every marker watch. */
    @Deactivate
    public void deactivate() {
        if (adoptions != null) {
            adoptions.stop();
        }
        worker.shutdownNow();
        runs.values().forEach(HandoffRun::closeWatches);
    }

    @Override
    public LmmHandoff start(HandoffPlan plan) {
        planCheck.check(plan);
        return StripedTurns.inTurn(ueTurns, plan.downlink(), () -> startInTurn(plan));
    }

    private LmmHandoff startInTurn(HandoffPlan plan) {
        boolean busy = store.handoffs().stream().anyMatch(
                h -> h.plan().downlink().equals(plan.downlink())
                        && (h.state() == LmmHandoff.State.DETACHED
                        || h.state() == LmmHandoff.State.ATTACHED));
        if (busy) {
            throw FlowBufException.conflict("a handoff of %s is under way", plan.downlink());
        }
        long id = store.nextId();
        HandoffRun run = new HandoffRun(id, plan, intentService, bufferService);
        Rollback undo = new Rollback();
        Resident resident = store.resident(plan.downlink()).orElse(null);
        if (resident != null && !plan.buffered()) {
            throw FlowBufException.conflict("%s lives in a buffer since its last handoff: hand "
                                                    + "it off with buffering", plan.downlink());
        }
        if (resident != null && !resident.in.equals(plan.sourceIn())) {
            throw FlowBufException.conflict("%s lives in buffer %s, entered at %s, not at the "
                                                    + "plan's source %s", plan.downlink(),
                                            resident.buffer, resident.in, plan.sourceIn());
        }
        try {
            switch (plan.buffering()) {
                case FLOWBUF:
                    run.prepare(Optional.ofNullable(resident),
                                r -> store.putResident(plan.downlink(), r), anchor, undo);
                    // The run owns the old resident now: it retires it as its source.
                    store.removeResident(plan.downlink());
                    break;
                case CONTROLLER:
                    run.holdInController(controllerBuffering, anchor, undo);
                    break;
                default:
                    run.switchPathOnly(anchor, undo);
            }
        } catch (FlowBufException e) {
            undo.run();
            throw e;
        }
        runs.put(id, run);
        store.putRunner(id, cluster.localNode());
        return record(new LmmHandoff(id, plan, LmmHandoff.State.DETACHED, run.sourceBuffer,
                                     run.forwardedBuffer, run.newPathBuffer, 0, null));
    }

    @Override
    public LmmHandoff attach(long id) {
        return inUeTurn(id, () -> attachInTurn(id));
    }

    // A step of a handoff, in its UE's turn (a handoff's plan never changes).
    private <T> T inUeTurn(long id, Supplier<T> step) {
        LmmHandoff h = handoff(id).orElseThrow(() -> FlowBufException.notFound("no handoff %d",
                                                                               id));
        return StripedTurns.inTurn(ueTurns, h.plan().downlink(), step);
    }

    private LmmHandoff attachInTurn(long id) {
        LmmHandoff h = in(id, LmmHandoff.State.DETACHED);
        HandoffRun run = runs.get(id);
        if (run == null && h.plan().buffering() != HandoffPlan.Buffering.NONE) {
            // Another instance of the cluster started it and holds its run.
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, String.format(
                    "handoff %d is run by instance %s, which holds its buffers' marker "
                            + "watches: attach it through that instance; if it is gone, the "
                            + "master of %s adopts the handoff, and attaches it", id,
                    store.runner(id).orElse("that started it"), h.plan().sourceIn().deviceId()));
        }
        if (h.plan().buffering() == HandoffPlan.Buffering.NONE) {
            runs.remove(id);
            return record(h.with(LmmHandoff.State.COMPLETED));
        }
        if (h.plan().buffering() == HandoffPlan.Buffering.CONTROLLER) {
            try {
                run.releaseFromController(controllerBuffering);
            } catch (FlowBufException e) {
                return record(h.failed("attach: " + e.getMessage()));
            } finally {
                runs.remove(id);
            }
            return record(h.with(LmmHandoff.State.COMPLETED));
        }
        try {
            run.attach(packets, () -> worker.execute(() -> markerSeen(id)));
        } catch (FlowBufException e) {
            run.closeWatches();
            return record(h.failed("attach: " + e.getMessage()));
        }
        worker.schedule(() -> markerTimedOut(id), markerTimeoutMs, TimeUnit.MILLISECONDS);
        return record(h.with(LmmHandoff.State.ATTACHED));
    }

    private void markerSeen(long id) {
        onWorker(id, () -> markerSeenInTurn(id));
    }

    private void markerSeenInTurn(long id) {
        LmmHandoff h = store.get(id).orElseThrow();
        if (h.state() != LmmHandoff.State.ATTACHED) {
            return;
        }
        h = record(h.withMarkerReport());
        if (h.markerReports() >= MARKER_REPORTERS) {
            complete(h, null);
        }
    }

    private void markerTimedOut(long id) {
        onWorker(id, () -> markerTimedOutInTurn(id));
    }

    // A worker's step of a handoff still known (a completed one may be forgotten).
    private void onWorker(long id, Runnable step) {
        handoff(id).ifPresent(h -> StripedTurns.inTurn(ueTurns, h.plan().downlink(), () -> {
            step.run();
            return null;
        }));
    }

    private void markerTimedOutInTurn(long id) {
        LmmHandoff h = store.get(id).orElseThrow();
        if (h.state() == LmmHandoff.State.ATTACHED) {
            // Hold nothing forever: release the new path without the guarantee.
            complete(h, String.format("end marker reported by %d of %d buffers within %d ms; "
                                              + "new path released without the ordering "
                                              + "guarantee", h.markerReports(),
                                      MARKER_REPORTERS, markerTimeoutMs));
        }
    }

    private void complete(LmmHandoff h, String failure) {
        HandoffRun run = runs.get(h.id());
        try {
            boolean drained = run.releaseNewPath();
            store.putResident(h.plan().downlink(), run.retireOldPath());
            runs.remove(h.id());
            if (failure != null) {
                record(h.failed(failure));
            } else if (!drained) {
                record(h.failed("forwarded buffer did not drain within "
                                        + HandoffRun.DRAIN_WAIT_MS + " ms"));
            } else {
                record(h.with(LmmHandoff.State.COMPLETED));
            }
        } catch (FlowBufException e) {
            run.closeWatches();
            record(h.failed("complete: " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.closeWatches();
            record(h.failed("interrupted while completing"));
        }
    }

    /**
     * This instance is the master of a device now: it adopts the buffered
     * handoffs under way whose source is that device and whose runner is
     * gone (dead, or this instance's own run lost with a deactivation). A
     * runner that lives keeps its run; an instance that is not the device's
     * master adopts nothing.
     *
     * @param device the device
     * @return how many handoffs it adopted
     */
    int takeOver(DeviceId device) {
        if (!cluster.masters(device)) {
            return 0;
        }
        int adopted = 0;
        for (LmmHandoff h : store.handoffs()) {
            if (h.plan().sourceIn().deviceId().equals(device) && underWay(h)
                    && !runs.containsKey(h.id())) {
                if (StripedTurns.inTurn(ueTurns, h.plan().downlink(), () -> adoptInTurn(h.id()))) {
                    adopted++;
                }
            }
        }
        return adopted;
    }

    private static boolean underWay(LmmHandoff h) {
        return h.state() == LmmHandoff.State.DETACHED || h.state() == LmmHandoff.State.ATTACHED;
    }

    private boolean adoptInTurn(long id) {
        LmmHandoff h = store.get(id).orElse(null);
        if (h == null || !underWay(h) || runs.containsKey(id)
                || h.plan().buffering() == HandoffPlan.Buffering.NONE) {
            // The no-buffering baseline has no run: any instance attaches it.
            return false;
        }
        String runner = store.runner(id).orElse(null);
        String self = cluster.localNode();
        if (runner != null && !runner.equals(self) && cluster.alive(runner)) {
            return false;
        }
        if (h.plan().buffering() == HandoffPlan.Buffering.CONTROLLER) {
            record(h.failed("its instance (" + runner + ") is gone, and with it the packets "
                                    + "it held in the controller; taken over by " + self));
            return true;
        }
        HandoffRun run = HandoffRun.adopt(h, intentService, bufferService);
        runs.put(id, run);
        store.putRunner(id, self);
        if (h.state() == LmmHandoff.State.ATTACHED) {
            reattach(run, new LmmHandoff(id, h.plan(), LmmHandoff.State.ATTACHED,
                                         run.sourceBuffer, run.forwardedBuffer,
                                         run.newPathBuffer, 0, null));
        }
        return true;
    }

    // An adopted ATTACHED handoff: its marker watches died with its runner.
    // The marker is sent again behind everything still on the old path (the
    // anchor switched long ago) and both buffers watched again; the timeout
    // releases the new path if it does not come, as for any handoff.
    private void reattach(HandoffRun run, LmmHandoff fresh) {
        record(fresh);
        watchAgain(fresh.id(), run, System.nanoTime() + markerTimeoutMs * 1_000_000);
    }

    // In the UE's turn. A new master's first calls to a buffer agent may be
    // refused until its Buffer Service drives the agent: tried again every
    // REWATCH_MS until the marker timeout, then the new path is released.
    private void watchAgain(long id, HandoffRun run, long deadline) {
        LmmHandoff h = store.get(id).orElse(null);
        if (h == null || h.state() != LmmHandoff.State.ATTACHED || runs.get(id) != run) {
            return;
        }
        try {
            run.attach(packets, () -> worker.execute(() -> markerSeen(id)));
        } catch (FlowBufException e) {
            run.closeWatches();
            if (System.nanoTime() < deadline) {
                worker.schedule(() -> onWorker(id, () -> watchAgain(id, run, deadline)),
                                REWATCH_MS, TimeUnit.MILLISECONDS);
                return;
            }
            complete(h, String.format("taken over from a gone instance; its buffers not "
                                              + "watched again within %d ms (%s): new path "
                                              + "released without the ordering guarantee",
                                      markerTimeoutMs, e.getMessage()));
            return;
        }
        worker.schedule(() -> markerTimedOut(id), markerTimeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public Optional<LmmHandoff> handoff(long id) {
        return store.get(id);
    }

    @Override
    public Collection<LmmHandoff> handoffs() {
        List<LmmHandoff> all = new ArrayList<>(store.handoffs());
        all.sort(Comparator.comparingLong(LmmHandoff::id));
        return all;
    }

    private LmmHandoff in(long id, LmmHandoff.State expected) {
        LmmHandoff h = handoff(id).orElseThrow(() -> FlowBufException.notFound("no handoff %d",
                                                                               id));
        if (h.state() != expected) {
            throw FlowBufException.conflict("handoff %d is %s, not %s", id, h.state(), expected);
        }
        return h;
    }

    private LmmHandoff record(LmmHandoff h) {
        store.put(h);
        if (h.state() == LmmHandoff.State.COMPLETED) {
            completed.finished(h.id()).forEach(store::remove);
        }
        return h;
    }
}
