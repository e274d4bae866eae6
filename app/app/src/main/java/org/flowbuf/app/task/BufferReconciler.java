/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.app.southbound.AgentBuffer;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.AgentOperation;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.BufferStore;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Brings the store and an agent back in line after either side restarted.
 * A restarted controller adopts what the agent holds rather than resetting
 * it; a restarted agent gets its buffers back in the states the store says.
 */
final class BufferReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(BufferReconciler.class);

    private final AgentDirectory agents;
    private final BufferStore store;
    // Re-attachments already reported: an agent reports a re-attached
    // buffer until it restarts again; the counts tell two restarts apart
    // (two crashes that re-attach the same counts are reported once).
    private final Set<String> reattachReported = ConcurrentHashMap.newKeySet();

    BufferReconciler(AgentDirectory agents, BufferStore store) {
        this.agents = Objects.requireNonNull(agents);
        this.store = Objects.requireNonNull(store);
    }

    List<BufferEvent> reconcile(DeviceId deviceId) {
        BufferAgentClient agent = agents.agent(deviceId);
        // Called when the agent is back: the first call must not wait out the
        // channel's reconnect backoff from the outage.
        agent.reconnectNow();
        Map<BufferId, AgentBuffer> onAgent = agent.buffers().stream()
                .collect(Collectors.toMap(AgentBuffer::id, Function.identity()));
        Map<VportId, VportSlot> slots = agents.vportSlots(deviceId).stream()
                .collect(Collectors.toMap(VportSlot::id, Function.identity()));
        List<BufferEvent> events = new ArrayList<>();
        for (Buffer known : store.buffers(deviceId)) {
            AgentBuffer found = onAgent.remove(known.id());
            if (found == null) {
                events.add(recreate(agent, known, slots.get(known.vport())));
                continue;
            }
            if (found.reattached() && reattachReported.add(reattachKey(deviceId, found))) {
                // The agent crashed and kept what the buffer held (its state
                // dir): said once per re-attachment, with what it lost.
                Buffer reattached = known.withMode(found.mode())
                        .withOccupancy(found.occupancyPackets());
                store.put(reattached);
                events.add(new BufferEvent(BufferEvent.Type.BUFFER_REATTACHED, reattached,
                                           found.reattachedPackets(), found.missedWhileDown()));
                LOG.warn("{}: agent restarted after a crash; buffer {} re-attached with {} packets,"
                                 + " {} lost while it was down", deviceId, known.id(),
                         found.reattachedPackets(), found.missedWhileDown());
            } else if (found.mode() != known.mode()) {
                // The agent is the truth about modes (a change may have been
                // applied just before the controller went away).
                store.put(known.withMode(found.mode()).withOccupancy(found.occupancyPackets()));
            }
        }
        for (AgentBuffer unknown : onAgent.values()) {
            if (unknown.vport().isPresent() && slots.containsKey(unknown.vport().get())) {
                // The operator's, ready buffers too: an empty one the agent
                // lists may have been taken before the restart, with a rule
                // still steering a quiet flow into it, so it is not handed out.
                Buffer adopted = new Buffer(deviceId, unknown.id(), BufferService.OPERATOR,
                                            unknown.spec(), unknown.vport().get(), unknown.mode(),
                                            unknown.occupancyPackets());
                store.put(adopted);
                events.add(new BufferEvent(BufferEvent.Type.BUFFER_ADOPTED, adopted));
            } else {
                LOG.warn("{}: agent buffer {} is on no configured vport; left alone", deviceId,
                         unknown.id());
            }
        }
        return events;
    }

    private static String reattachKey(DeviceId deviceId, AgentBuffer found) {
        return deviceId + "/" + found.id() + "/" + found.reattachedPackets() + "/"
                + found.missedWhileDown();
    }

    private BufferEvent recreate(BufferAgentClient agent, Buffer known, VportSlot slot) {
        if (slot == null) {
            throw FlowBufException.conflict("%s: vport %s of buffer %s is no longer configured",
                                            known.deviceId(), known.vport(), known.id());
        }
        agent.apply(List.of(AgentOperation.createBuffer(known.id(), known.spec()),
                            AgentOperation.createVport(slot, known.mode()),
                            AgentOperation.bind(known.id(), slot.id())));
        Buffer recreated = known.withOccupancy(0);
        store.put(recreated);
        return new BufferEvent(BufferEvent.Type.BUFFER_RECREATED, recreated);
    }
}
