/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentEvent;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.VportSlot;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * pause_flow and resume_flow as ordered task-level steps and steering rules.
 *
 * <p>Pause: the buffer is made to receive (BUFFERING) before the rule that
 * steers the flow into its vport is installed, so no packet reaches a vport
 * that would drop it. Resume: the rule that sends replayed packets to the
 * out-port is installed before the buffer starts transmitting (FORWARDING),
 * so held packets leave first, in order, and later packets queue behind them
 * in the same buffer. A failed step undoes the steps before it.
 */
public final class IntentManager implements FlowBufIntentService {

    /** Pause rules: the flow as it arrives. */
    static final int PAUSE_PRIORITY = 100;
    /** Resume rules match only replayed packets, above any pause rule. */
    static final int RESUME_PRIORITY = 200;
    /** Size of a buffer allocated for a pause without a buffer id. */
    static final BufferSpec AUTO_BUFFER = BufferSpec.defaults();

    private final BufferService buffers;
    private final AgentDirectory agents;
    private final SteeringRuleWriter rules;
    private final IntentStore store;
    private volatile Consumer<IntentEvent> events = e -> { };

    /**
     * Creates the service.
     *
     * @param buffers task-level service
     * @param agents  vport slots of each device
     * @param rules   writer of steering rules
     */
    public IntentManager(BufferService buffers, AgentDirectory agents, SteeringRuleWriter rules) {
        this(buffers, agents, rules, new InMemoryIntentStore());
    }

    /**
     * Creates the service on a given intent store.
     *
     * @param buffers task-level service
     * @param agents  agents and vport slots of the devices
     * @param rules   writer of steering rules
     * @param store   where intents and their rules are kept
     */
    public IntentManager(BufferService buffers, AgentDirectory agents, SteeringRuleWriter rules,
                         IntentStore store) {
        this.buffers = Objects.requireNonNull(buffers);
        this.agents = Objects.requireNonNull(agents);
        this.rules = Objects.requireNonNull(rules);
        this.store = Objects.requireNonNull(store);
    }

    /**
     * Sets where intent events go; without it events are dropped.
     *
     * @param sink receiver of every intent event
     */
    public void setEventSink(Consumer<IntentEvent> sink) {
        this.events = Objects.requireNonNull(sink);
    }

    @Override
    public synchronized FlowBufIntent pause(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                                            Optional<BufferId> bufferId, String owner) {
        checkPort(inPort, "inPort");
        if (filter.inPort().isPresent() && !filter.inPort().get().equals(inPort)) {
            throw FlowBufException.invalid("filter in-port %s differs from inPort %s",
                                           filter.inPort().get(), inPort);
        }
        FlowBufIntent intent = newIntent(FlowBufIntent.Type.PAUSE, deviceId, inPort, filter, owner);
        PauseSteps steps = new PauseSteps(deviceId, owner, intent.id());
        try {
            Vport vport = steps.receivingVport(bufferId.or(() -> pausedBuffer(deviceId, filter)));
            SteeringRule rule = new SteeringRule(filter.withoutInPort(), false,
                                                 inPort.toLong(), vport.switchPort(),
                                                 PAUSE_PRIORITY);
            adoptOrInstall(deviceId, rule);
            store.putRule(intent.id(), rule);
            return record(intent.with(FlowBufIntent.State.INSTALLED,
                                      vport.buffer().orElseThrow(), null));
        } catch (FlowBufException e) {
            steps.undo();
            record(intent.with(FlowBufIntent.State.FAILED, null, e.getMessage()));
            throw e;
        }
    }

    @Override
    public synchronized FlowBufIntent resume(DeviceId deviceId, PortNumber outPort,
                                             FlowFilter filter, Optional<BufferId> bufferId,
                                             String owner) {
        checkPort(outPort, "outPort");
        FlowBufIntent intent = newIntent(FlowBufIntent.Type.RESUME, deviceId, outPort, filter,
                                         owner);
        Vport vport;
        try {
            vport = vportToRelease(deviceId, filter, bufferId);
        } catch (FlowBufException e) {
            record(intent.with(FlowBufIntent.State.FAILED, bufferId.orElse(null), e.getMessage()));
            throw e;
        }
        BufferId id = vport.buffer().orElseThrow();
        SteeringRule rule = new SteeringRule(filter.withoutInPort(), true, vport.switchPort(),
                                             outPort.toLong(), RESUME_PRIORITY);
        Optional<IntentId> earlier = installedWith(deviceId, rule);
        try {
            if (earlier.isEmpty()) {
                rules.install(deviceId, rule);
            }
        } catch (FlowBufException e) {
            record(intent.with(FlowBufIntent.State.FAILED, id, e.getMessage()));
            throw e;
        }
        try {
            buffers.moveBuffer(deviceId, id, owner, BufferState.FORWARDING);
            earlier.ifPresent(this::supersede);
        } catch (FlowBufException e) {
            if (earlier.isEmpty()) {
                rules.remove(deviceId, rule);
            }
            record(intent.with(FlowBufIntent.State.FAILED, id, e.getMessage()));
            throw e;
        }
        store.putRule(intent.id(), rule);
        return record(intent.with(FlowBufIntent.State.INSTALLED, id, null));
    }

    /** The vport of the buffer to release: known locally, no agent call. */
    private Vport vportToRelease(DeviceId deviceId, FlowFilter filter,
                                 Optional<BufferId> bufferId) {
        BufferId id = bufferId.or(() -> pausedBuffer(deviceId, filter)).orElseThrow(
                () -> FlowBufException.notFound("no paused flow with filter %s on %s; "
                                                        + "name the buffer", filter, deviceId));
        return vportOf(deviceId, id);
    }

    /** The vport a buffer is bound to, as the service knows it: no agent call. */
    private Vport vportOf(DeviceId deviceId, BufferId id) {
        return buffers.getVports(deviceId).stream()
                .filter(v -> v.buffer().equals(Optional.of(id))).findFirst()
                .orElseThrow(() -> FlowBufException.notFound("no buffer %s on %s", id, deviceId));
    }

    @Override
    public Collection<FlowBufIntent> getIntents() {
        List<FlowBufIntent> all = new ArrayList<>(store.intents().values());
        all.sort((a, b) -> Long.compare(a.id().id(), b.id().id()));
        return all;
    }

    @Override
    public Optional<FlowBufIntent> getIntent(IntentId id) {
        return store.get(id);
    }

    @Override
    public synchronized void withdraw(IntentId id, String owner) {
        FlowBufIntent intent = getIntent(id).orElseThrow(
                () -> FlowBufException.notFound("no intent %s", id));
        if (!intent.owner().equals(owner)) {
            throw new FlowBufException(FlowBufException.Reason.FORBIDDEN,
                                       "intent " + id + " belongs to " + intent.owner());
        }
        SteeringRule rule = store.rules().get(id);
        if (intent.state() != FlowBufIntent.State.INSTALLED || rule == null) {
            throw FlowBufException.conflict("intent %s is %s, not INSTALLED", id, intent.state());
        }
        BufferId bufferId = intent.bufferId().orElseThrow();
        if (intent.type() == FlowBufIntent.Type.PAUSE) {
            long held = buffers.getBuffer(intent.deviceId(), bufferId)
                    .map(Buffer::occupancyPackets).orElse(0L);
            if (held > 0) {
                throw FlowBufException.conflict("buffer %s still holds %d packets of intent %s: "
                                                        + "resume it first", bufferId, held, id);
            }
            rules.remove(intent.deviceId(), rule);
        } else {
            // Stop replaying first, then drop the rule: nothing replays to nowhere.
            buffers.moveBuffer(intent.deviceId(), bufferId, owner, BufferState.BUFFERING);
            rules.remove(intent.deviceId(), rule);
        }
        store.removeRule(id);
        record(intent.with(FlowBufIntent.State.WITHDRAWN, bufferId, null));
    }

    /**
     * Installs a rule, or takes it over from an earlier installed intent
     * with the same rule (a flow paused again after a resume reuses its
     * rule and buffer); the earlier intent is then withdrawn.
     */
    private void adoptOrInstall(DeviceId deviceId, SteeringRule rule) {
        Optional<IntentId> earlier = installedWith(deviceId, rule);
        if (earlier.isPresent()) {
            supersede(earlier.get());
        } else {
            rules.install(deviceId, rule);
        }
    }

    private Optional<IntentId> installedWith(DeviceId deviceId, SteeringRule rule) {
        Map<IntentId, FlowBufIntent> intents = store.intents();
        return store.rules().entrySet().stream()
                .filter(e -> e.getValue().equals(rule)
                        && intents.get(e.getKey()).deviceId().equals(deviceId))
                .map(Map.Entry::getKey).findFirst();
    }

    private void supersede(IntentId id) {
        store.removeRule(id);
        FlowBufIntent old = store.get(id).orElseThrow();
        record(old.with(FlowBufIntent.State.WITHDRAWN, old.bufferId().orElse(null),
                        null));
    }

    /** The buffer of the installed pause with this filter (in-port ignored). */
    private Optional<BufferId> pausedBuffer(DeviceId deviceId, FlowFilter filter) {
        FlowFilter wanted = filter.withoutInPort();
        return store.intents().values().stream()
                .filter(i -> i.type() == FlowBufIntent.Type.PAUSE
                        && i.state() == FlowBufIntent.State.INSTALLED
                        && i.deviceId().equals(deviceId)
                        && i.filter().withoutInPort().equals(wanted))
                .map(i -> i.bufferId().orElseThrow())
                .reduce((first, later) -> later);
    }

    private long switchPort(Buffer buffer) {
        return agents.vportSlots(buffer.deviceId()).stream()
                .filter(s -> s.id().equals(buffer.vport())).map(VportSlot::switchPort)
                .findFirst().orElseThrow(() -> FlowBufException.notFound(
                        "vport %s of buffer %s is not configured on %s", buffer.vport(),
                        buffer.id(), buffer.deviceId()));
    }

    private FlowBufIntent newIntent(FlowBufIntent.Type type, DeviceId deviceId, PortNumber port,
                                    FlowFilter filter, String owner) {
        return record(new FlowBufIntent(store.nextId(), type,
                                        deviceId, port, filter, null,
                                        FlowBufIntent.State.REQUESTED, owner, null));
    }

    private FlowBufIntent record(FlowBufIntent intent) {
        Optional<FlowBufIntent> previous = store.put(intent);
        if (previous.isEmpty() || previous.get().state() != intent.state()) {
            events.accept(new IntentEvent(IntentEvent.typeOf(intent.state()), intent));
        }
        return intent;
    }

    private static void checkPort(PortNumber port, String name) {
        if (port == null || port.isLogical() || port.toLong() <= 0) {
            throw FlowBufException.invalid("%s must be a physical port number, got %s", name, port);
        }
    }

    /** The buffer side of a pause, remembering how to undo it. */
    private final class PauseSteps {
        private final DeviceId deviceId;
        private final String owner;
        private final IntentId intentId;
        private BufferId created;
        private BufferId moved;
        private BufferState movedFrom;

        private PauseSteps(DeviceId deviceId, String owner, IntentId intentId) {
            this.deviceId = deviceId;
            this.owner = owner;
            this.intentId = intentId;
        }

        /**
         * The vport of the given or reused buffer, moved to BUFFERING, or of a
         * new one. The vport mode, known locally, decides whether a move is
         * needed; only an unbound buffer (Free or Storing) needs the agent's
         * occupancy to know what to restore on undo.
         */
        Vport receivingVport(Optional<BufferId> id) {
            if (id.isEmpty()) {
                BufferId auto = BufferId.bufferId("auto-" + intentId.id());
                Buffer b = buffers.createBuffer(deviceId, auto, owner, AUTO_BUFFER,
                                                BufferState.BUFFERING);
                created = auto;
                return new Vport(b.vport(), switchPort(b), auto, b.mode());
            }
            Vport before = vportOf(deviceId, id.get());
            BufferState from = stateBefore(before);
            if (from == BufferState.BUFFERING) {
                return before;
            }
            buffers.moveBuffer(deviceId, id.get(), owner, BufferState.BUFFERING);
            moved = id.get();
            movedFrom = from;
            return vportOf(deviceId, id.get());
        }

        private BufferState stateBefore(Vport vport) {
            if (vport.mode().hasRx() || vport.mode().hasTx()) {
                return BufferState.derive(vport.mode().hasRx(), vport.mode().hasTx(), 0);
            }
            BufferId id = vport.buffer().orElseThrow();
            return buffers.getBuffer(deviceId, id).map(Buffer::state).orElseThrow(
                    () -> FlowBufException.notFound("no buffer %s on %s", id, deviceId));
        }

        void undo() {
            try {
                if (created != null) {
                    buffers.removeBuffer(deviceId, created, owner, true);
                } else if (moved != null) {
                    buffers.moveBuffer(deviceId, moved, owner, movedFrom);
                }
            } catch (FlowBufException e) {
                // The original failure is what the caller needs; the store
                // reconciles the buffer with its agent on the next query.
                return;
            }
        }
    }
}
