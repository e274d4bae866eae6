/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.AgentOperation;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.TriggerReply;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.BufferStore;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The task-level Buffer Service, independent of OSGi: the ONOS component and
 * the embedded host both run this class. Every change is planned first and
 * applied to the agent atomically; the store changes only after the agent
 * accepted it, so a refused request changes nothing.
 *
 * <p>Concurrency: each change runs in the turn of the buffer it changes
 * ({@link ChangeTurns}), so changes of one buffer are ordered and changes
 * of different buffers, with their agent calls, run in parallel. What
 * buffers of a device share is claimed without a lock: a create reserves
 * its vport ({@link VportReservations}) and a taker claims its ready buffer
 * ({@link ReadyBuffers#claimFirst}) by one atomic add each, so no vport and
 * no ready buffer is ever given twice. Reconciling a device waits for its
 * buffers' changes and holds them back while it compares.
 */
public final class BufferManager implements BufferService {

    private static final Logger LOG = LoggerFactory.getLogger(BufferManager.class);
    private final AgentDirectory agents;
    private final BufferStore store;
    private final EventHistory history = new EventHistory();
    private final BufferReconciler reconciler;
    private final ArmedMoves armed = new ArmedMoves();
    private final ReadyBuffers ready;
    private final ChangeTurns turns = new ChangeTurns();
    private final VportReservations vports;
    private volatile Consumer<BufferEvent> events = e -> { };

    /**
     * Creates the service.
     *
     * @param agents agents and vport slots of the devices
     * @param store  where buffers are kept
     */
    public BufferManager(AgentDirectory agents, BufferStore store) {
        this(agents, store, ReadyBuffers.ownThread());
    }

    /**
     * Creates the service with a given executor for making ready buffers.
     *
     * @param agents agents and vport slots of the devices
     * @param store  where buffers are kept
     * @param topUps where ready buffers are made after one is taken, a
     *               buffer removed or a device reconciled
     */
    public BufferManager(AgentDirectory agents, BufferStore store, Executor topUps) {
        this.agents = Objects.requireNonNull(agents);
        this.store = Objects.requireNonNull(store);
        this.reconciler = new BufferReconciler(agents, store);
        this.ready = new ReadyBuffers(store, Objects.requireNonNull(topUps));
        this.vports = new VportReservations(store);
    }

    /**
     * Sets where buffer events go (the ONOS event dispatcher, or the embedded
     * host's event stream); without it events are dropped.
     *
     * @param sink receiver of every buffer event
     */
    public void setEventSink(Consumer<BufferEvent> sink) {
        this.events = Objects.requireNonNull(sink);
    }

    @Override
    public Buffer createBuffer(DeviceId deviceId, BufferId id, String owner,
                               BufferSpec spec, BufferState state) {
        return create(deviceId, id, owner, spec, state, true);
    }

    // takeReady: whether a ready buffer may give up its vport when none is
    // free (not when the create makes a ready buffer itself).
    private Buffer create(DeviceId deviceId, BufferId id, String owner, BufferSpec spec,
                          BufferState state, boolean takeReady) {
        if (state != BufferState.FREE && state != BufferState.BUFFERING
                && state != BufferState.FORWARDING) {
            throw FlowBufException.invalid("a new buffer is empty: create it FREE, BUFFERING "
                                                   + "or FORWARDING, not %s", state);
        }
        return turns.onBuffer(deviceId, id, () -> {
            if (store.get(deviceId, id).isPresent()) {
                throw FlowBufException.conflict("buffer %s already exists on %s", id, deviceId);
            }
            BufferAgentClient agent = agents.agent(deviceId);
            VportSlot slot = reserveSlot(deviceId, takeReady);
            try {
                VportMode mode = StateTransitionPlanner.modeFor(state);
                agent.apply(List.of(AgentOperation.createBuffer(id, spec),
                                    AgentOperation.createVport(slot, mode),
                                    AgentOperation.bind(id, slot.id())));
                Buffer buffer = new Buffer(deviceId, id, owner, spec, slot.id(), mode, 0);
                store.put(buffer);
                emit(new BufferEvent(BufferEvent.Type.BUFFER_ADDED, buffer));
                return buffer;
            } finally {
                vports.release(deviceId, slot.id()); // bound in the store, or not used
            }
        });
    }

    @Override
    public Buffer allocateBuffer(DeviceId deviceId, BufferId idIfCreated,
                                 String owner, BufferSpec spec) {
        Optional<Buffer> spare = spec.equals(ReadyBuffers.SPEC)
                ? ready.claimFirst(deviceId) : Optional.empty();
        Buffer buffer = spare.flatMap(s -> take(s, owner)).orElseGet(
                () -> createBuffer(deviceId, idIfCreated, owner, spec, BufferState.BUFFERING));
        topUpLater(deviceId);
        return buffer;
    }

    // A claimed ready buffer given to its new owner, in its turn; empty
    // when it changed before the turn came (it is then not handed out).
    private Optional<Buffer> take(Buffer claimed, String owner) {
        try {
            return turns.onBuffer(claimed.deviceId(), claimed.id(), () -> {
                Optional<Buffer> now = store.get(claimed.deviceId(), claimed.id());
                if (now.isEmpty() || !now.get().equals(claimed)) {
                    return Optional.<Buffer>empty();
                }
                Buffer taken = claimed.withOwner(owner);
                store.put(taken);
                emit(new BufferEvent(BufferEvent.Type.BUFFER_ASSIGNED, taken));
                return Optional.of(taken);
            });
        } finally {
            ready.release(claimed);
        }
    }

    @Override
    public Buffer moveBuffer(DeviceId deviceId, BufferId id, String owner,
                             BufferState state) {
        owned(deviceId, id, owner); // a stranger is refused before the agent is touched
        return withArmedTriggers(deviceId, id, () -> move(deviceId, id, owner, state));
    }

    /**
     * Runs a change of a buffer in its turn and the turns of the triggers
     * armed to move it, after disarming them: an explicit move or removal
     * of a buffer goes after every armed move of it.
     */
    private <T> T withArmedTriggers(DeviceId deviceId, BufferId id, Supplier<T> change) {
        while (true) {
            Set<BufferId> involved = new HashSet<>(armed.triggersMoving(deviceId, id));
            involved.add(id);
            Optional<T> done = turns.onBuffers(deviceId, involved, () -> {
                List<BufferId> triggers = armed.triggersMoving(deviceId, id);
                if (!involved.containsAll(triggers)) {
                    return Optional.<T>empty(); // armed meanwhile: take its turn too
                }
                triggers.forEach(t -> disarmTrigger(deviceId, t));
                return Optional.of(change.get());
            });
            if (done.isPresent()) {
                return done.get();
            }
        }
    }

    private Buffer move(DeviceId deviceId, BufferId id, String owner, BufferState state) {
        Buffer buffer = owned(deviceId, id, owner); // as a fired move may have left it
        BufferAgentClient agent = agents.agent(deviceId);
        // BUFFERING and FORWARDING follow from the vport mode alone; the other
        // targets depend on what the buffer holds, which only the agent knows.
        Buffer current = state == BufferState.BUFFERING || state == BufferState.FORWARDING
                ? buffer : buffer.withOccupancy(agent.occupancyPackets(id));
        List<AgentOperation> plan = StateTransitionPlanner.plan(current, state);
        agent.apply(plan);
        Buffer moved = current.withMode(StateTransitionPlanner.modeFor(state));
        if (!moved.equals(buffer)) {
            // A move to where the buffer is (a pause checking its owner) writes
            // nothing: in a cluster the store is a distributed map.
            store.put(moved);
        }
        if (moved.state() != buffer.state()) {
            emit(new BufferEvent(BufferEvent.Type.BUFFER_STATE_CHANGED, moved));
        }
        return moved;
    }

    @Override
    public void removeBuffer(DeviceId deviceId, BufferId id, String owner,
                             boolean discard) {
        owned(deviceId, id, owner); // a stranger is refused before the agent is touched
        withArmedTriggers(deviceId, id, () -> {
            remove(owned(deviceId, id, owner), discard); // as a fired move may have left it
            return Boolean.TRUE;
        });
        topUpLater(deviceId); // its vport is free again
    }

    private void remove(Buffer buffer, boolean discard) {
        DeviceId deviceId = buffer.deviceId();
        BufferId id = buffer.id();
        agents.agent(deviceId).apply(List.of(AgentOperation.unbind(id, buffer.vport()),
                                             AgentOperation.removeVport(buffer.vport()),
                                             AgentOperation.removeBuffer(id, discard)));
        store.remove(deviceId, id);
        armed.remove(deviceId, id); // the agent dropped what it triggered
        emit(new BufferEvent(BufferEvent.Type.BUFFER_REMOVED, buffer));
    }

    // Only devices that keep ready buffers wake the top-up thread.
    private void topUpLater(DeviceId deviceId) {
        if (agents.readyBuffers(deviceId) > 0) {
            ready.topUpLater(deviceId, this::topUp);
        }
    }

    /** Makes ready buffers, one at a time, until the device has its number. */
    private void topUp(DeviceId deviceId) {
        while (makeOneReady(deviceId)) {
            continue;
        }
    }

    private boolean makeOneReady(DeviceId deviceId) {
        if (!agents.devices().contains(deviceId)
                || ready.count(deviceId) >= agents.readyBuffers(deviceId)
                || !hasUnboundSlot(deviceId)) {
            return false;
        }
        try {
            create(deviceId, ready.nextId(deviceId), ReadyBuffers.OWNER, ReadyBuffers.SPEC,
                   BufferState.BUFFERING, false);
            return true;
        } catch (FlowBufException e) {
            // The next take, removal or reconciliation of the device tries again.
            LOG.warn("{}: no ready buffer made: {}", deviceId, e.getMessage());
            return false;
        }
    }

    @Override
    public Optional<Buffer> getBuffer(DeviceId deviceId, BufferId id) {
        return store.get(deviceId, id).flatMap(b -> withLiveOccupancy(deviceId, b));
    }

    @Override
    public Collection<Buffer> getBuffers(DeviceId deviceId) {
        return store.buffers(deviceId).stream().map(b -> withLiveOccupancy(deviceId, b))
                .flatMap(Optional::stream).collect(Collectors.toList());
    }

    @Override
    public Optional<BufferStatistics> getStatistics(DeviceId deviceId, BufferId id) {
        return store.get(deviceId, id).map(b -> agents.agent(deviceId).statistics(id));
    }

    @Override
    public List<BufferEvent> getEvents(DeviceId deviceId, BufferId id) {
        return history.of(deviceId, id);
    }

    @Override
    public Set<DeviceId> getDevices() {
        return agents.devices();
    }

    @Override
    public List<Vport> getVports(DeviceId deviceId) {
        Map<VportId, Buffer> bound = store.buffers(deviceId).stream()
                .collect(Collectors.toMap(Buffer::vport, b -> b));
        return agents.vportSlots(deviceId).stream().map(slot -> {
            Buffer buffer = bound.get(slot.id());
            return buffer == null
                    ? new Vport(slot.id(), slot.switchPort(), slot.tag(), null, VportMode.NONE)
                    : new Vport(slot.id(), slot.switchPort(), slot.tag(), buffer.id(),
                                buffer.mode());
        }).collect(Collectors.toList());
    }

    @Override
    public List<BufferEvent> reconcile(DeviceId deviceId) {
        List<BufferEvent> changes = turns.onDevice(deviceId,
                                                   () -> reconciler.reconcile(deviceId));
        changes.forEach(this::emit);
        topUpLater(deviceId);
        return changes;
    }

    @Override
    public Optional<Long> purgeUpTo(DeviceId deviceId, BufferId id, String owner,
                                    PacketId packetId, boolean inclusive) {
        owned(deviceId, id, owner);
        return agents.agent(deviceId).purgeUpTo(id, packetId, inclusive);
    }

    @Override
    public Optional<Long> purgeToSyncPoint(DeviceId deviceId, BufferId id, String owner,
                                           PacketId packetId) {
        owned(deviceId, id, owner);
        return agents.agent(deviceId).purgeToSyncPoint(id, packetId);
    }

    @Override
    public MarkerWatch watchMarker(DeviceId deviceId, BufferId id, String owner,
                                   MarkerPattern pattern, Runnable onSeen) {
        owned(deviceId, id, owner);
        return agents.agent(deviceId).watchMarker(id, pattern, onSeen);
    }

    @Override
    public void armMove(DeviceId deviceId, BufferId trigger, BufferId buffer,
                        String owner, BufferState state, boolean purgeToReport) {
        if (state != BufferState.BUFFERING && state != BufferState.FORWARDING) {
            throw FlowBufException.invalid("an armed move goes to BUFFERING or FORWARDING (set "
                                                   + "by a vport mode alone), not %s", state);
        }
        if (trigger.equals(buffer)) {
            throw FlowBufException.invalid("buffer %s cannot trigger its own move", buffer);
        }
        // In the turns of both: and of the buffer an earlier arming of the
        // trigger moves, which a fire reported by this re-arm changes.
        Set<BufferId> involved = new HashSet<>(List.of(trigger, buffer));
        armed.get(deviceId, trigger).ifPresent(a -> involved.add(a.buffer));
        turns.onBuffers(deviceId, involved, () -> {
            owned(deviceId, trigger, owner);
            Buffer moved = owned(deviceId, buffer, owner);
            agents.agent(deviceId).armTrigger(
                    trigger, Map.of(moved.vport(), StateTransitionPlanner.modeFor(state)),
                    purgeToReport ? Optional.of(buffer) : Optional.empty());
            armed.put(deviceId, trigger, new ArmedMoves.Armed(buffer, state));
            return null;
        });
    }

    @Override
    public Disarmed disarm(DeviceId deviceId, BufferId trigger, String owner) {
        owned(deviceId, trigger, owner);
        while (true) {
            // The trigger's turn and that of the buffer its fire may have moved.
            Optional<ArmedMoves.Armed> seen = armed.get(deviceId, trigger);
            Set<BufferId> involved = new HashSet<>(List.of(trigger));
            seen.ifPresent(a -> involved.add(a.buffer));
            Optional<Disarmed> done = turns.onBuffers(deviceId, involved, () -> {
                Optional<ArmedMoves.Armed> now = armed.get(deviceId, trigger);
                if (now.isPresent() && !involved.contains(now.get().buffer)) {
                    return Optional.<Disarmed>empty(); // re-armed meanwhile
                }
                owned(deviceId, trigger, owner);
                return Optional.of(disarmTrigger(deviceId, trigger));
            });
            if (done.isPresent()) {
                return done.get();
            }
        }
    }

    private Disarmed disarmTrigger(DeviceId deviceId, BufferId trigger) {
        TriggerReply reply = agents.agent(deviceId).armTrigger(trigger, Map.of(),
                                                               Optional.empty());
        Optional<ArmedMoves.Armed> move = armed.remove(deviceId, trigger);
        if (reply.wasArmed()) {
            return Disarmed.stillArmed();
        }
        // Without a fire the agent lost the trigger (a restart): nothing moved.
        if (move.isEmpty() || reply.lastFire().isEmpty()) {
            return Disarmed.nothingArmed();
        }
        TriggerFire fire = reply.lastFire().get();
        if (fire.moved()) {
            learnFired(deviceId, move.get());
        }
        return Disarmed.fired(fire);
    }

    // A move fired on the agent set the buffer's vport mode there: the store follows.
    private void learnFired(DeviceId deviceId, ArmedMoves.Armed fired) {
        store.get(deviceId, fired.buffer).ifPresent(buffer -> {
            Buffer moved = buffer.withMode(StateTransitionPlanner.modeFor(fired.state));
            if (!moved.equals(buffer)) {
                store.put(moved);
                emit(new BufferEvent(BufferEvent.Type.BUFFER_STATE_CHANGED, moved));
            }
        });
    }

    private void emit(BufferEvent event) {
        history.record(event);
        events.accept(event);
    }

    /**
     * The buffer with what its agent holds now; empty when a removal raced
     * the query (queries do not take the service's lock).
     */
    private Optional<Buffer> withLiveOccupancy(DeviceId deviceId, Buffer buffer) {
        try {
            return Optional.of(occupancyOf(deviceId, buffer));
        } catch (FlowBufException e) {
            if (e.reason() != FlowBufException.Reason.NOT_FOUND) {
                // UNAVAILABLE included: what the agent held before it went
                // away is no figure of what it holds now (a crash loses it).
                throw e;
            }
            // The agent answered without the buffer: a change of it (a
            // removal, which tells the agent before the store) raced this
            // query, or the agent restarted and lost it. In the buffer's
            // turn, with no change of it in flight, the store and the agent
            // say which.
            return turns.onBuffer(deviceId, buffer.id(), () -> {
                Optional<Buffer> now = store.get(deviceId, buffer.id());
                return now.isEmpty() ? now : Optional.of(lostOrLive(deviceId, now.get()));
            });
        }
    }

    private Buffer occupancyOf(DeviceId deviceId, Buffer buffer) {
        return buffer.withOccupancy(agents.agent(deviceId).occupancyPackets(buffer.id()));
    }

    // Asked with no change in flight: NOT_FOUND now means the agent lost a
    // buffer the store has. The stored view would say it still receives,
    // with a stale occupancy, while what it held is gone and its vport drops
    // what is steered there.
    private Buffer lostOrLive(DeviceId deviceId, Buffer buffer) {
        try {
            return occupancyOf(deviceId, buffer);
        } catch (FlowBufException e) {
            if (e.reason() == FlowBufException.Reason.NOT_FOUND) {
                throw FlowBufException.conflict(
                        "the agent of %s no longer has buffer %s (it restarted?): what it held "
                                + "is lost; POST devices/%s/reconcile re-creates it",
                        deviceId, buffer.id(), deviceId);
            }
            throw e;
        }
    }

    private Buffer owned(DeviceId deviceId, BufferId id, String owner) {
        Buffer buffer = store.get(deviceId, id).orElseThrow(
                () -> FlowBufException.notFound("no buffer %s on %s", id, deviceId));
        if (!buffer.owner().equals(owner)) {
            throw new FlowBufException(FlowBufException.Reason.FORBIDDEN,
                                       String.format("buffer %s belongs to %s", id, buffer.owner()));
        }
        return buffer;
    }

    private boolean hasUnboundSlot(DeviceId deviceId) {
        Set<VportId> used = store.buffers(deviceId).stream().map(Buffer::vport)
                .collect(Collectors.toSet());
        return agents.vportSlots(deviceId).stream().anyMatch(s -> !used.contains(s.id()));
    }

    // Reserves a vport no buffer is bound to or, failing that, the vport of
    // a ready buffer, removed for it: buffers made ahead never make a create
    // fail. The caller releases the reservation.
    private VportSlot reserveSlot(DeviceId deviceId, boolean takeReady) {
        List<VportSlot> slots = agents.vportSlots(deviceId);
        return vports.reserveUnbound(deviceId, slots)
                .or(() -> takeReady ? vportOfReady(deviceId, slots) : Optional.empty())
                .orElseThrow(() -> new FlowBufException(
                        FlowBufException.Reason.EXHAUSTED,
                        "every vport of " + deviceId + " is bound to a buffer (add vports, or "
                                + "tags to a vport in the device's flowbuf config)"));
    }

    // The vport of a claimed ready buffer, reserved, then the buffer removed
    // (no other change touches a claimed ready buffer).
    private Optional<VportSlot> vportOfReady(DeviceId deviceId, List<VportSlot> slots) {
        Optional<Buffer> claimed = ready.claimFirst(deviceId);
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Buffer spare = claimed.get();
        try {
            Optional<VportSlot> slot = slots.stream()
                    .filter(s -> s.id().equals(spare.vport())).findFirst();
            if (slot.isEmpty() || !vports.reserve(deviceId, spare.vport())) {
                return Optional.empty();
            }
            try {
                remove(spare, true);
            } catch (FlowBufException e) {
                vports.release(deviceId, spare.vport());
                throw e;
            }
            return slot;
        } finally {
            ready.release(spare);
        }
    }
}
