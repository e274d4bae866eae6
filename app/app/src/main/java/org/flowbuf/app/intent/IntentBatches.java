/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.app.southbound.AgentDirectory;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Many pauses, or many resumes, through one buffer: the same safe order as
 * one intent (the buffer receives before any flow is steered into it; every
 * replay rule is in place before the buffer transmits), with one buffer move
 * and one table write for the whole batch. All or nothing: a refused write
 * leaves no rule of the batch and the buffer as it was, and every intent of
 * the batch FAILED.
 */
final class IntentBatches {

    /** Most flows in one batch (one P4Runtime Write of this many updates). */
    static final int MAX_FLOWS = 1024;

    private final BufferService buffers;
    private final AgentDirectory agents;
    private final SteeringRuleWriter rules;
    private final IntentLedger ledger;

    IntentBatches(BufferService buffers, AgentDirectory agents, SteeringRuleWriter rules,
                  IntentLedger ledger) {
        this.buffers = buffers;
        this.agents = agents;
        this.rules = rules;
        this.ledger = ledger;
    }

    List<FlowBufIntent> pauseAll(DeviceId deviceId, List<FlowFilter> flows, BufferId bufferId,
                                 String owner) {
        checkFlows(flows, Function.identity());
        for (FlowFilter flow : flows) {
            if (flow.inPort().isEmpty()) {
                throw FlowBufException.invalid("every flow of a pause batch needs its in-port: %s",
                                               flow);
            }
            SteeringRule.requirePhysical(flow.inPort().get(), "inPort");
        }
        IntentManager.requireReachable(agents, deviceId);
        List<FlowBufIntent> intents = open(FlowBufIntent.Type.PAUSE, deviceId, flows, owner,
                                           f -> f.inPort().orElseThrow());
        PauseSteps steps = new PauseSteps(buffers, agents, deviceId, owner, intents.get(0).id());
        try {
            Vport vport = steps.receivingVport(Optional.of(bufferId));
            List<SteeringRule> batch = new ArrayList<>();
            for (FlowFilter flow : flows) {
                batch.add(IntentManager.pauseRule(flow, flow.inPort().orElseThrow(), vport));
            }
            List<Optional<IntentId>> earlier = owners(deviceId, batch);
            rules.installAll(deviceId, notOwned(batch, earlier));
            return recordInstalled(intents, batch, earlier, bufferId);
        } catch (FlowBufException e) {
            steps.undo();
            intents.forEach(i -> ledger.failed(i, null, e));
            throw e;
        }
    }

    List<FlowBufIntent> resumeAll(DeviceId deviceId, PortNumber outPort, List<FlowFilter> flows,
                                  BufferId bufferId, String owner) {
        checkFlows(flows, FlowFilter::withoutInPort);  // a replay rule ignores the in-port
        IntentManager.requireReachable(agents, deviceId);
        List<FlowBufIntent> intents = open(FlowBufIntent.Type.RESUME, deviceId, flows, owner,
                                           f -> outPort);
        try {
            Vport vport = PauseSteps.vportOf(buffers, deviceId, bufferId);
            List<SteeringRule> batch = new ArrayList<>();
            for (FlowFilter flow : flows) {
                batch.add(IntentManager.replayRule(flow, vport, outPort));
            }
            List<Optional<IntentId>> earlier = owners(deviceId, batch);
            List<SteeringRule> fresh = notOwned(batch, earlier);
            rules.installAll(deviceId, fresh);
            try {
                buffers.moveBuffer(deviceId, bufferId, owner, BufferState.FORWARDING);
            } catch (FlowBufException e) {
                rules.removeAll(deviceId, fresh);
                throw e;
            }
            return recordInstalled(intents, batch, earlier, bufferId);
        } catch (FlowBufException e) {
            intents.forEach(i -> ledger.failed(i, bufferId, e));
            throw e;
        }
    }

    /** The installed intent that owns each rule of the batch, if any. */
    private List<Optional<IntentId>> owners(DeviceId deviceId, List<SteeringRule> batch) {
        List<Optional<IntentId>> owners = new ArrayList<>();
        batch.forEach(rule -> owners.add(ledger.installedWith(deviceId, rule)));
        return owners;
    }

    /** The rules no installed intent owns: the ones to write. */
    private static List<SteeringRule> notOwned(List<SteeringRule> batch,
                                               List<Optional<IntentId>> owners) {
        List<SteeringRule> fresh = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (owners.get(i).isEmpty()) {
                fresh.add(batch.get(i));
            }
        }
        return fresh;
    }

    /** Records every intent installed; an earlier owner of its rule is taken over. */
    private List<FlowBufIntent> recordInstalled(List<FlowBufIntent> intents,
                                                List<SteeringRule> batch,
                                                List<Optional<IntentId>> owners,
                                                BufferId bufferId) {
        List<FlowBufIntent> installed = new ArrayList<>();
        for (int i = 0; i < intents.size(); i++) {
            owners.get(i).ifPresent(ledger::supersede);
            installed.add(ledger.installed(intents.get(i), bufferId, batch.get(i)));
        }
        return installed;
    }

    private List<FlowBufIntent> open(FlowBufIntent.Type type, DeviceId deviceId,
                                     List<FlowFilter> flows, String owner,
                                     Function<FlowFilter, PortNumber> port) {
        List<FlowBufIntent> intents = new ArrayList<>();
        for (FlowFilter flow : flows) {
            intents.add(ledger.open(type, deviceId, port.apply(flow), flow, owner));
        }
        return intents;
    }

    private static void checkFlows(List<FlowFilter> flows, Function<FlowFilter, FlowFilter> key) {
        if (flows.isEmpty() || flows.size() > MAX_FLOWS) {
            throw FlowBufException.invalid("a batch has 1 to %d flows, not %d", MAX_FLOWS,
                                           flows.size());
        }
        Set<FlowFilter> seen = new HashSet<>();
        for (FlowFilter flow : flows) {
            if (!seen.add(key.apply(flow))) {
                throw FlowBufException.invalid("flow %s appears twice in the batch", flow);
            }
        }
    }
}
