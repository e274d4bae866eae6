/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.apps.FmmPlan;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.flowbuf.api.apps.FmmService.OWNER;

/**
 * The attach triggers of an FMM session whose plan names the UE's attach
 * signal: per eNB, a one-packet buffer that the signal is steered into (a
 * pause intent on the eNB's UE port). Armed at a handoff once the target's
 * window is purged, the target's trigger releases that window on the agent
 * the moment the UE's signal arrives; the attach call then only confirms.
 */
final class AttachTriggers {

    private static final Logger LOG = LoggerFactory.getLogger(AttachTriggers.class);

    private final long sessionId;
    private final FlowFilter signal;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Map<DeviceId, BufferId> triggers = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> steering = new LinkedHashMap<>();
    // eNBs armed since the last attach (armed on the sync worker).
    private final Set<DeviceId> armed = ConcurrentHashMap.newKeySet();

    AttachTriggers(long sessionId, FlowFilter signal, FlowBufIntentService intents,
                   BufferService buffers) {
        this.sessionId = sessionId;
        this.signal = signal;
        this.intents = intents;
        this.buffers = buffers;
    }

    // Every cell gets its trigger buffer and the steering of the signal into it.
    void open(FmmPlan plan, Rollback undo) {
        // The trigger keeps the newest signal only: it is a doorbell, not a queue.
        BufferSpec spec = BufferSpec.builder().capacityPackets(1)
                .overflow(OverflowPolicy.DROP_HEAD).build();
        for (FmmPlan.Cell cell : plan.cells()) {
            DeviceId enb = cell.enb();
            BufferId trigger = BufferId.bufferId(FmmRun.bufferName(sessionId, enb) + "-attach");
            buffers.createBuffer(enb, trigger, OWNER, spec, BufferState.BUFFERING);
            undo.add(() -> buffers.removeBuffer(enb, trigger, OWNER, true));
            triggers.put(enb, trigger);
            IntentId steer = intents.pause(enb, cell.ue().port(), signal, Optional.of(trigger),
                                           OWNER).id();
            undo.add(() -> intents.withdraw(steer, OWNER));
            steering.put(enb, steer);
        }
    }

    // On the sync worker, once the target's window holds only what the UE
    // still needs: the UE's signal at the target releases it. When the
    // agent refuses, the attach call releases.
    void armRelease(DeviceId target, BufferId window) {
        try {
            buffers.armMove(target, triggers.get(target), window, OWNER, BufferState.FORWARDING);
        } catch (FlowBufException e) {
            LOG.warn("FMM session {}: {}'s release not armed ({}); the attach call releases",
                     sessionId, target, e.getMessage());
            return;
        }
        armed.add(target);
    }

    // At the attach, before any release: disarms every eNB armed since the
    // last attach (one the UE did not go to must not fire later). Returns
    // whether the target's trigger had already fired.
    boolean settle(DeviceId target) {
        boolean fired = false;
        for (DeviceId enb : List.copyOf(armed)) {
            armed.remove(enb);
            boolean stillArmed = buffers.disarm(enb, triggers.get(enb), OWNER);
            fired |= enb.equals(target) && !stillArmed;
        }
        return fired;
    }

    // Removes the triggers, then the steering (a pause is not withdrawn
    // while its buffer holds a signal), going on past failures.
    List<String> close() {
        List<String> failures = new ArrayList<>();
        for (DeviceId enb : triggers.keySet()) {
            try {
                buffers.removeBuffer(enb, triggers.get(enb), OWNER, true);
                intents.withdraw(steering.get(enb), OWNER);
            } catch (FlowBufException e) {
                failures.add(enb + " attach trigger: " + e.getMessage());
            }
        }
        return failures;
    }
}
