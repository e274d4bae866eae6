/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentEvent;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.southbound.AgentDirectory;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
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
 *
 * <p>Concurrency: every change runs in the turn of the flows it concerns
 * ({@link FlowTurns}): intents of one flow are ordered, intents of different
 * flows run in parallel, with their agent calls and rule writes; no lock of
 * the whole service is held across a call. Reads take no turn.
 */
public final class IntentManager implements FlowBufIntentService {

    /** Pause rules: the flow as it arrives. */
    static final int PAUSE_PRIORITY = 100;
    /** Resume rules match only replayed packets, above any pause rule. */
    static final int RESUME_PRIORITY = 200;

    private final BufferService buffers;
    private final AgentDirectory agents;
    private final SteeringRuleWriter rules;
    private final IntentLedger ledger;
    private final IntentBatches batches;
    private final FlowTurns turns = new FlowTurns();

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
        this(buffers, agents, rules, store, Retention.DEFAULT_KEPT);
    }

    /**
     * Creates the service on a given intent store, keeping a given number of
     * finished (withdrawn or failed) intents; older ones are forgotten.
     *
     * @param buffers      task-level service
     * @param agents       agents and vport slots of the devices
     * @param rules        writer of steering rules
     * @param store        where intents and their rules are kept
     * @param keptFinished finished intents kept (at least 1)
     */
    public IntentManager(BufferService buffers, AgentDirectory agents, SteeringRuleWriter rules,
                         IntentStore store, int keptFinished) {
        this.buffers = Objects.requireNonNull(buffers);
        this.agents = Objects.requireNonNull(agents);
        this.rules = Objects.requireNonNull(rules);
        this.ledger = new IntentLedger(Objects.requireNonNull(store), keptFinished);
        this.batches = new IntentBatches(buffers, agents, rules, ledger);
    }

    /**
     * Sets where intent events go; without it events are dropped.
     *
     * @param sink receiver of every intent event
     */
    public void setEventSink(Consumer<IntentEvent> sink) {
        ledger.setEventSink(sink);
    }

    @Override
    public FlowBufIntent pause(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                               Optional<BufferId> bufferId, String owner) {
        SteeringRule.requirePhysical(inPort, "inPort");
        filter.atInPort(inPort);  // refuses a filter on another in-port
        requireReachable(agents, deviceId);
        return turns.onFlow(deviceId, filter,
                            () -> pauseInTurn(deviceId, inPort, filter, bufferId, owner));
    }

    private FlowBufIntent pauseInTurn(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                                      Optional<BufferId> bufferId, String owner) {
        refuseAnotherBuffer(deviceId, inPort, filter, bufferId);
        FlowBufIntent intent = ledger.open(FlowBufIntent.Type.PAUSE, deviceId, inPort, filter,
                                           owner);
        PauseSteps steps = new PauseSteps(buffers, agents, deviceId, owner, intent.id());
        try {
            Vport vport = steps.receivingVport(
                    bufferId.or(() -> ledger.pausedBuffer(deviceId, filter)));
            SteeringRule rule = pauseRule(filter, inPort, vport);
            adoptOrInstall(deviceId, rule);
            return ledger.installed(intent, vport.buffer().orElseThrow(), rule);
        } catch (FlowBufException e) {
            steps.undo();
            ledger.failed(intent, null, e);
            throw e;
        }
    }

    @Override
    public FlowBufIntent resume(DeviceId deviceId, PortNumber outPort, FlowFilter filter,
                                Optional<BufferId> bufferId, String owner) {
        SteeringRule.requirePhysical(outPort, "outPort");
        requireReachable(agents, deviceId);
        return turns.onFlow(deviceId, filter,
                            () -> resumeInTurn(deviceId, outPort, filter, bufferId, owner));
    }

    private FlowBufIntent resumeInTurn(DeviceId deviceId, PortNumber outPort, FlowFilter filter,
                                       Optional<BufferId> bufferId, String owner) {
        FlowBufIntent intent = ledger.open(FlowBufIntent.Type.RESUME, deviceId, outPort, filter,
                                           owner);
        Vport vport;
        try {
            vport = vportToRelease(deviceId, filter, bufferId);
        } catch (FlowBufException e) {
            ledger.failed(intent, bufferId.orElse(null), e);
            throw e;
        }
        BufferId id = vport.buffer().orElseThrow();
        SteeringRule rule = replayRule(filter, vport, outPort);
        Optional<IntentId> earlier = ledger.installedWith(deviceId, rule);
        try {
            if (earlier.isEmpty()) {
                rules.install(deviceId, rule);
            }
        } catch (FlowBufException e) {
            ledger.failed(intent, id, e);
            throw e;
        }
        try {
            buffers.moveBuffer(deviceId, id, owner, BufferState.FORWARDING);
            earlier.ifPresent(ledger::supersede);
        } catch (FlowBufException e) {
            if (earlier.isEmpty()) {
                rules.remove(deviceId, rule);
            }
            ledger.failed(intent, id, e);
            throw e;
        }
        return ledger.installed(intent, id, rule);
    }

    @Override
    public List<FlowBufIntent> pauseAll(DeviceId deviceId, List<FlowFilter> flows,
                                        BufferId bufferId, String owner) {
        return turns.onFlows(deviceId, flows,
                             () -> batches.pauseAll(deviceId, flows, bufferId, owner));
    }

    @Override
    public List<FlowBufIntent> resumeAll(DeviceId deviceId, PortNumber outPort,
                                         List<FlowFilter> flows, BufferId bufferId,
                                         String owner) {
        SteeringRule.requirePhysical(outPort, "outPort");
        return turns.onFlows(deviceId, flows,
                             () -> batches.resumeAll(deviceId, outPort, flows, bufferId, owner));
    }

    /**
     * Refuses an intent while the device's agent does not answer, before
     * anything is recorded or written: a pause's own steps may make no agent
     * call (a buffer that already receives, a ready buffer), and its rule
     * would then steer the flow into a vport whose agent is gone.
     *
     * @param agents   the devices' agents
     * @param deviceId device of the intent
     * @throws FlowBufException NOT_FOUND without an agent, UNAVAILABLE when it does not answer
     */
    static void requireReachable(AgentDirectory agents, DeviceId deviceId) {
        agents.agent(deviceId).checkReachable();
    }

    /**
     * Refuses a pause of a flow into a buffer other than the one its
     * installed pause steers it into (held or, after a resume, passing
     * through), before anything is recorded or moved: the two rules would
     * match the same packets, the target refuses the second (the embedded
     * host answered with the table's words after moving the buffer and
     * back), and ONOS would overwrite the first under its intent.
     */
    private void refuseAnotherBuffer(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                                     Optional<BufferId> bufferId) {
        if (bufferId.isEmpty()) {
            return; // joins the buffer the flow is paused into, if any
        }
        ledger.installedPause(deviceId, inPort, filter)
                .filter(p -> !p.bufferId().equals(bufferId))
                .ifPresent(p -> {
                    throw FlowBufException.conflict(
                            "flow %s at port %s of %s already steers into buffer %s "
                                    + "(intent %s): pause it there, or withdraw that intent "
                                    + "first", filter.withoutInPort(), inPort, deviceId,
                            p.bufferId().orElseThrow(), p.id());
                });
    }

    /** The vport of the buffer to release: known locally, no agent call. */
    private Vport vportToRelease(DeviceId deviceId, FlowFilter filter,
                                 Optional<BufferId> bufferId) {
        BufferId id = bufferId.or(() -> ledger.pausedBuffer(deviceId, filter)).orElseThrow(
                () -> FlowBufException.notFound("no paused flow with filter %s on %s; "
                                                        + "name the buffer", filter, deviceId));
        return PauseSteps.vportOf(buffers, deviceId, id);
    }

    /**
     * The steering rules of the installed intents on a device: what the
     * switch must hold for them (written again after the switch restarted).
     *
     * @param deviceId device
     * @return rules, oldest intent first
     */
    public List<SteeringRule> installedRules(DeviceId deviceId) {
        List<SteeringRule> found = new ArrayList<>();
        ledger.store().rules().entrySet().stream()
                .filter(e -> ledger.store().get(e.getKey())
                        .map(i -> i.deviceId().equals(deviceId)).orElse(false))
                .sorted((a, b) -> Long.compare(a.getKey().id(), b.getKey().id()))
                .forEach(e -> found.add(e.getValue()));
        return found;
    }

    /**
     * Takes over steering rules found on a device that no intent owns (a
     * restarted controller forgot its intents; the switch kept their rules):
     * each becomes an INSTALLED intent again, a PAUSE for a rule that steers
     * a flow into a buffer's vport, a RESUME for one that sends what a buffer
     * replays to a port, owned by the buffer's owner. The paused flow can
     * then be resumed by its filter, and the intent list says what the
     * switch does. Rules whose vport has no buffer, and multicast rules, are
     * left alone.
     *
     * @param deviceId device
     * @param found    the rules read back from the device
     * @return the intents adopted
     */
    public List<FlowBufIntent> adopt(DeviceId deviceId, List<SteeringRule> found) {
        List<FlowFilter> flows = new ArrayList<>();
        found.forEach(rule -> flows.add(rule.filter()));
        return turns.onFlows(deviceId, flows, () -> adoptInTurn(deviceId, found));
    }

    private List<FlowBufIntent> adoptInTurn(DeviceId deviceId, List<SteeringRule> found) {
        // A pause rule names its vport by (port, tag). A replay rule names
        // only the port: one from a shared port (several buffers replay
        // there) cannot name its buffer and is left alone.
        Map<List<Long>, Vport> byPort = new HashMap<>();
        buffers.getVports(deviceId).stream().filter(v -> v.buffer().isPresent())
                .forEach(v -> byPort.put(List.of(v.switchPort(), v.tag()), v));
        Map<BufferId, String> owners = new HashMap<>();
        List<FlowBufIntent> adopted = new ArrayList<>();
        for (SteeringRule rule : found) {
            if (rule.multicastGroup().isPresent() || ledger.installedWith(deviceId, rule).isPresent()
                    || rule.ingressPort().isEmpty()) {
                continue;
            }
            long vportPort = rule.fromVport() ? rule.ingressPort().get() : rule.outPort();
            Vport vport = byPort.get(List.of(vportPort, rule.fromVport() ? 0L : rule.tag()));
            if (vport == null) {
                continue;
            }
            BufferId bufferId = vport.buffer().get();
            String owner = owners.computeIfAbsent(bufferId, id -> buffers.getBuffer(deviceId, id)
                    .map(Buffer::owner).orElse(BufferService.OPERATOR));
            FlowBufIntent.Type type = rule.fromVport() ? FlowBufIntent.Type.RESUME
                    : FlowBufIntent.Type.PAUSE;
            PortNumber port = PortNumber.portNumber(rule.fromVport() ? rule.outPort()
                                                            : rule.ingressPort().get());
            FlowBufIntent intent = ledger.open(type, deviceId, port, rule.filter(), owner);
            adopted.add(ledger.installed(intent, bufferId, rule));
        }
        return adopted;
    }

    @Override
    public Collection<FlowBufIntent> getIntents() {
        List<FlowBufIntent> all = new ArrayList<>(ledger.store().intents().values());
        all.sort((a, b) -> Long.compare(a.id().id(), b.id().id()));
        return all;
    }

    @Override
    public Optional<FlowBufIntent> getIntent(IntentId id) {
        return ledger.store().get(id);
    }

    @Override
    public void withdraw(IntentId id, String owner) {
        FlowBufIntent seen = getIntent(id).orElseThrow(
                () -> FlowBufException.notFound("no intent %s", id));
        // An intent's device and flow never change: its turn is known before.
        turns.onFlow(seen.deviceId(), seen.filter(), () -> {
            withdrawInTurn(id, owner);
            return null;
        });
    }

    private void withdrawInTurn(IntentId id, String owner) {
        FlowBufIntent intent = getIntent(id).orElseThrow(
                () -> FlowBufException.notFound("no intent %s", id));
        if (!intent.owner().equals(owner)) {
            throw new FlowBufException(FlowBufException.Reason.FORBIDDEN,
                                       "intent " + id + " belongs to " + intent.owner());
        }
        SteeringRule rule = ledger.store().rule(id).orElse(null);
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
        ledger.store().removeRule(id);
        ledger.record(intent.with(FlowBufIntent.State.WITHDRAWN, bufferId, null));
    }

    /**
     * Installs a rule, or takes it over from an earlier installed intent
     * with the same rule (a flow paused again after a resume reuses its
     * rule and buffer); the earlier intent is then withdrawn.
     */
    private void adoptOrInstall(DeviceId deviceId, SteeringRule rule) {
        Optional<IntentId> earlier = ledger.installedWith(deviceId, rule);
        if (earlier.isPresent()) {
            ledger.supersede(earlier.get());
        } else {
            rules.install(deviceId, rule);
        }
    }

    // The rule that steers a flow arriving on inPort into a buffer's vport.
    static SteeringRule pauseRule(FlowFilter flow, PortNumber inPort, Vport vport) {
        if (vport.tag() != 0) {
            return SteeringRule.toBuffer(flow.withoutInPort(), inPort.toLong(), vport.switchPort(),
                                         vport.tag(), PAUSE_PRIORITY);
        }
        return new SteeringRule(flow.withoutInPort(), false, inPort.toLong(), vport.switchPort(),
                                PAUSE_PRIORITY);
    }

    // The rule that sends what a buffer replays of a flow to outPort.
    static SteeringRule replayRule(FlowFilter flow, Vport vport, PortNumber outPort) {
        return new SteeringRule(flow.withoutInPort(), true, vport.switchPort(), outPort.toLong(),
                                RESUME_PRIORITY);
    }
}
