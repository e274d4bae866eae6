/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.pi.DriverGroups;
import org.flowbuf.app.pi.FlowRuleServiceSteeringWriter;
import org.flowbuf.app.pi.GroupServiceMulticastWriter;
import org.flowbuf.app.store.DistributedIdRecords;
import org.flowbuf.app.store.IdRecords;
import org.flowbuf.app.store.InMemoryIdRecords;
import org.flowbuf.app.task.StripedTurns;
import com.google.common.util.concurrent.Striped;
import org.onlab.util.Tools;
import org.onosproject.cluster.ClusterService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.group.GroupService;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * FMM sessions as an ONOS component (and, constructed directly, in the
 * embedded host). Every step is a few Buffer Service calls made on the
 * caller's thread, but for what a handoff prepares at the target (the sync
 * and the arm of its release; see {@link Handoffs}), which a worker makes
 * while the UE moves; only a close waits (for the serving buffer to empty),
 * and an attach when it comes before that work is done.
 *
 * <p>Per-UE turns instead of a manager lock: every step of a session (open,
 * handoff, attach, close) runs in its UE's turn (a Guava striped lock keyed
 * by the downlink), so one UE's steps are ordered and it has one open
 * session; sessions of different UEs run in parallel with their calls. The
 * anchor's multicast groups are claimed without a lock
 * ({@link GroupReservations}).
 *
 * <p>The sessions' records live in a store: in ONOS the cluster's
 * distributed map (every instance lists the same sessions, gives out no id
 * another gave, refuses a second session of a downlink and a group another
 * instance's session holds), in the embedded host memory. A session's run
 * (its intents, triggers and the sync under way) stays with the instance
 * that opened it, which alone takes its steps. When that instance dies, the
 * new master of the plan's anchor adopts its open sessions ({@link
 * #takeOver}): their steps (handoff, attach, close) are then taken there.
 */
@Component(immediate = true, service = FmmService.class)
public class FmmManager implements FmmService {

    /** The anchor multicast groups FMM uses (one per open session). */
    static final int FIRST_GROUP = 0x1000;
    static final int LAST_GROUP = 0xffff;
    private static final String APP_NAME = "org.flowbuf.app";
    /** The sessions' map in ONOS's cluster (its ids: SESSIONS-ids). */
    static final String SESSIONS = "flowbuf-fmm-sessions";
    /** Which instance runs each open session, in ONOS's cluster. */
    static final String RUNNERS = "flowbuf-fmm-runners";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    private AnchorMulticast anchor;
    private PlanCheck planCheck;
    private ExecutorService syncWorker;
    private IdRecords<FmmSession> sessions = new InMemoryIdRecords<>();
    /** The instance that runs each open session (by session id). */
    private IdRecords<String> runners = new InMemoryIdRecords<>();
    /** Who this instance is, who lives, what it masters: whose runs it adopts. */
    private RunnerCluster cluster = RunnerCluster.SINGLE;
    /** ONOS: when this instance adopts the sessions of a gone one. */
    private RunAdoptions adoptions;
    // Closed sessions beyond these are forgotten; failed ones are kept.
    private final Retention<Long> closed = new Retention<>(Retention.DEFAULT_KEPT);
    private final Map<Long, FmmRun> runs = new ConcurrentHashMap<>();
    private final GroupReservations anchorGroups = new GroupReservations(FIRST_GROUP, LAST_GROUP);
    /** Turns of UEs (by downlink): many more stripes than UEs change at once. */
    private final Striped<Lock> ueTurns = Striped.lazyWeakLock(1024);

    /** For OSGi. */
    public FmmManager() {
    }

    /**
     * Creates the service on the Buffer Service's APIs (embedded host, tests).
     *
     * @param intentService intent API
     * @param bufferService task API
     * @param rules         writer of the anchor's multicast rule
     * @param groups        writer of the anchor's multicast groups
     */
    public FmmManager(FlowBufIntentService intentService, BufferService bufferService,
                      SteeringRuleWriter rules, MulticastGroupWriter groups) {
        this(intentService, bufferService, rules, groups, newSyncWorker());
    }

    // As above, with another worker for the syncs (tests).
    FmmManager(FlowBufIntentService intentService, BufferService bufferService,
               SteeringRuleWriter rules, MulticastGroupWriter groups, ExecutorService syncWorker) {
        this(intentService, bufferService, rules, groups, syncWorker, new InMemoryIdRecords<>());
    }

    // As above, on a given store (tests: two instances on one cluster's storage).
    FmmManager(FlowBufIntentService intentService, BufferService bufferService,
               SteeringRuleWriter rules, MulticastGroupWriter groups, ExecutorService syncWorker,
               IdRecords<FmmSession> sessions) {
        this(intentService, bufferService, rules, groups, syncWorker, sessions,
             new InMemoryIdRecords<>(), RunnerCluster.SINGLE);
    }

    // As above, as an instance of a cluster (tests: takeover by a new master).
    FmmManager(FlowBufIntentService intentService, BufferService bufferService,
               SteeringRuleWriter rules, MulticastGroupWriter groups, ExecutorService syncWorker,
               IdRecords<FmmSession> sessions, IdRecords<String> runners,
               RunnerCluster cluster) {
        this.sessions = sessions;
        this.runners = runners;
        this.cluster = cluster;
        this.intentService = intentService;
        this.bufferService = bufferService;
        this.anchor = new AnchorMulticast(rules, groups);
        this.syncWorker = syncWorker;
        // The embedded host has no model of a switch's ports: the agents only.
        this.planCheck = new PlanCheck(PlanCheck.Network.ANY, bufferService::getDevices);
    }

    @Activate
    protected void activate() {
        ApplicationId appId = coreService.registerApplication(APP_NAME);
        sessions = new DistributedIdRecords<>(storageService, SESSIONS,
                                              FmmSessionSerializer.SERIALIZER);
        runners = new DistributedIdRecords<>(storageService, RUNNERS,
                                             FmmSessionSerializer.RUNNERS_SERIALIZER);
        cluster = RunnerCluster.of(clusterService, mastershipService);
        Duration wait = Duration.ofSeconds(5);
        anchor = new AnchorMulticast(new FlowRuleServiceSteeringWriter(appId, flowRuleService,
                                                                       wait),
                                     new GroupServiceMulticastWriter(appId, groupService,
                                                                     new DriverGroups(deviceService),
                                                                     wait));
        syncWorker = newSyncWorker();
        planCheck = new PlanCheck(PlanCheck.Network.of(deviceService), bufferService::getDevices);
        adoptions = new RunAdoptions(mastershipService, clusterService, cluster, this::takeOver,
                                     "FMM sessions");
        adoptions.start();
    }

    private static ExecutorService newSyncWorker() {
        return Executors.newSingleThreadExecutor(Tools.groupedThreads("flowbuf/fmm", "sync-%d"));
    }

    /**
     * Stops taking syncs (those already queued still run, so no attach waits
     * on a dropped one); an attach then syncs on its own thread.
     */
    @Deactivate
    public void deactivate() {
        if (adoptions != null) {
            adoptions.stop();
        }
        syncWorker.shutdown();
    }

    @Override
    public FmmSession open(FmmPlan plan) {
        return StripedTurns.inTurn(ueTurns, plan.downlink(), () -> openInTurn(plan));
    }

    private FmmSession openInTurn(FmmPlan plan) {
        // Before any step: an undo leaves withdrawn intents and rewritten rules.
        planCheck.check(plan);
        boolean busy = sessions.values().stream().anyMatch(
                s -> s.plan().downlink().equals(plan.downlink()) && isOpen(s));
        if (busy) {
            throw FlowBufException.conflict("an FMM session of %s is open", plan.downlink());
        }
        int group = anchorGroups.claim(plan.anchor(), groupsOfOpenSessions(plan.anchor()));
        long id = sessions.nextId();
        FmmRun run = new FmmRun(id, plan, intentService, bufferService, syncWorker);
        Rollback undo = new Rollback();
        try {
            run.open(undo);
            anchor.start(plan, group, undo);
        } catch (FlowBufException e) {
            undo.run();
            anchorGroups.release(plan.anchor(), group);
            throw e;
        }
        runs.put(id, run);
        runners.put(id, cluster.localNode());
        return record(new FmmSession(id, plan, FmmSession.State.ATTACHED, plan.serving(), null,
                                     run.buffers(), group, FmmSession.Counters.NONE, null));
    }

    @Override
    public FmmSession handoff(long id, DeviceId target) {
        return inUeTurn(id, () -> handoffInTurn(id, target));
    }

    private FmmSession handoffInTurn(long id, DeviceId target) {
        FmmSession s = open(id);
        if (s.plan().cell(target).isEmpty()) {
            throw FlowBufException.invalid("%s is not a cell of FMM session %d", target, id);
        }
        Handoffs handoffs = runs.get(id).handoffs();
        if (s.state() == FmmSession.State.ATTACHED) {
            handoffs.start(s.serving(), target);
        } else {
            handoffs.retarget(target);
        }
        return record(s.detachedTowards(target));
    }

    @Override
    public FmmSession attach(long id) {
        return inUeTurn(id, () -> attachInTurn(id));
    }

    private FmmSession attachInTurn(long id) {
        FmmSession s = open(id);
        if (s.state() != FmmSession.State.DETACHED) {
            throw FlowBufException.conflict("FMM session %d has no handoff under way", id);
        }
        DeviceId target = s.target().orElseThrow();
        long start = System.nanoTime();
        Delivery delivered;
        try {
            delivered = runs.get(id).handoffs().deliver(s.serving(), target);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "interrupted during the sync of session " + id);
        }
        long micros = (System.nanoTime() - start) / 1000;
        return record(s.attachedTo(target, s.counters().plusHandoff(
                delivered.purged.isPresent(), delivered.purged.orElse(0L), micros,
                delivered.releasedOnSignal, delivered.heldOnSignal)));
    }

    @Override
    public FmmSession close(long id) {
        return inUeTurn(id, () -> closeInTurn(id));
    }

    private FmmSession closeInTurn(long id) {
        FmmSession s = open(id);
        List<String> failures = new ArrayList<>();
        try {
            anchor.stop(s.plan(), s.multicastGroup());
        } catch (FlowBufException e) {
            failures.add("anchor: " + e.getMessage());
        }
        try {
            // Mid-handoff no buffer delivers: every window is dropped.
            failures.addAll(runs.get(id).close(s.state() == FmmSession.State.ATTACHED
                                                       ? Optional.of(s.serving())
                                                       : Optional.empty()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("interrupted while closing");
        }
        runs.remove(id);
        anchorGroups.release(s.plan().anchor(), s.multicastGroup());
        return record(failures.isEmpty() ? s.ended(FmmSession.State.CLOSED, null)
                              : s.ended(FmmSession.State.FAILED,
                                        "close: " + String.join("; ", failures)));
    }

    /**
     * This instance is the master of a device now: it adopts the open
     * sessions anchored there whose runner is gone (dead, or this instance's
     * own run lost with a deactivation). A runner that lives keeps its run;
     * an instance that is not the anchor's master adopts nothing.
     *
     * @param device the device
     * @return how many sessions it adopted
     */
    int takeOver(DeviceId device) {
        if (!cluster.masters(device)) {
            return 0;
        }
        int adopted = 0;
        for (FmmSession s : sessions.values()) {
            if (s.plan().anchor().equals(device) && isOpen(s) && !runs.containsKey(s.id())
                    && StripedTurns.inTurn(ueTurns, s.plan().downlink(),
                                           () -> adoptInTurn(s.id()))) {
                adopted++;
            }
        }
        return adopted;
    }

    private boolean adoptInTurn(long id) {
        FmmSession s = sessions.get(id).orElse(null);
        if (s == null || !isOpen(s) || runs.containsKey(id)) {
            return false;
        }
        String runner = runners.get(id).orElse(null);
        String self = cluster.localNode();
        if (runner != null && !runner.equals(self) && cluster.alive(runner)) {
            return false;
        }
        runs.put(id, FmmRun.adopt(s, intentService, bufferService, syncWorker));
        runners.put(id, self);
        return true;
    }

    // The groups the open sessions of every instance hold on the anchor.
    private Set<Integer> groupsOfOpenSessions(DeviceId anchor) {
        return sessions.values().stream()
                .filter(s -> isOpen(s) && s.plan().anchor().equals(anchor))
                .map(FmmSession::multicastGroup).collect(Collectors.toSet());
    }

    @Override
    public Optional<FmmSession> session(long id) {
        return sessions.get(id);
    }

    @Override
    public Collection<FmmSession> sessions() {
        List<FmmSession> all = new ArrayList<>(sessions.values());
        all.sort(Comparator.comparingLong(FmmSession::id));
        return all;
    }

    // A step of a session, in its UE's turn (a session's plan never changes).
    private FmmSession inUeTurn(long id, Supplier<FmmSession> step) {
        FmmSession s = session(id).orElseThrow(
                () -> FlowBufException.notFound("no FMM session %d", id));
        return StripedTurns.inTurn(ueTurns, s.plan().downlink(), step);
    }

    private FmmSession open(long id) {
        FmmSession s = session(id).orElseThrow(
                () -> FlowBufException.notFound("no FMM session %d", id));
        if (!isOpen(s)) {
            throw FlowBufException.conflict("FMM session %d is %s", id, s.state());
        }
        if (!runs.containsKey(id)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, String.format(
                    "FMM session %d is driven by the ONOS instance that opened it", id));
        }
        return s;
    }

    private static boolean isOpen(FmmSession s) {
        return s.state() == FmmSession.State.ATTACHED || s.state() == FmmSession.State.DETACHED;
    }

    private FmmSession record(FmmSession s) {
        sessions.put(s.id(), s);
        if (!isOpen(s)) {
            runners.remove(s.id());
        }
        if (s.state() == FmmSession.State.CLOSED) {
            closed.finished(s.id()).forEach(sessions::remove);
        }
        return s;
    }
}
