/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.TriggerFire;
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
import java.util.concurrent.TimeUnit;

import static org.flowbuf.api.apps.FmmService.OWNER;

/**
 * The attach triggers of an FMM session whose plan names the UE's attach
 * signal: per eNB, a one-packet buffer that the signal is steered into (a
 * pause intent on the eNB's UE port). Armed at a handoff, the target's
 * trigger releases that window on the agent the moment the UE's signal
 * arrives (purged to the UE's receive report first, with ueReports; else
 * the window was purged before the arm); with ueReports the source's
 * trigger holds its window on the UE's signal as it leaves. The attach call
 * then disarms, and learns what fired.
 */
final class AttachTriggers {

    private static final Logger LOG = LoggerFactory.getLogger(AttachTriggers.class);

    private final long sessionId;
    private final FlowFilter signal;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Map<DeviceId, BufferId> triggers = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> steering = new LinkedHashMap<>();
    // eNBs armed since the last attach (some armed on the sync worker).
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

    // An adopted session's triggers, as its dead runner made them; every
    // one counts as armed, so that the next attach disarms what it armed.
    void adopt(FmmPlan plan) {
        OwnedIntents owned = new OwnedIntents(intents, OWNER, signal);
        for (FmmPlan.Cell cell : plan.cells()) {
            DeviceId enb = cell.enb();
            BufferId trigger = BufferId.bufferId(FmmRun.bufferName(sessionId, enb) + "-attach");
            triggers.put(enb, trigger);
            steering.put(enb, owned.find(FlowBufIntent.Type.PAUSE, cell.ue(), trigger));
            armed.add(enb);
        }
    }

    // In the handoff call (ueReports) or on the sync worker after the
    // target's purge: the UE's signal at the target releases its window,
    // once purged to the UE's report when toReport (else the window was
    // purged to the sync point before). When the agent refuses, the attach
    // call releases.
    void armRelease(DeviceId target, BufferId window, boolean toReport) {
        arm(target, window, BufferState.FORWARDING, toReport, "release");
    }

    // At the handoff call, with ueReports: the UE's signal as it leaves the
    // source holds the source's window. False when the agent refused (the
    // caller then holds at once).
    boolean armHold(DeviceId source, BufferId window) {
        return arm(source, window, BufferState.BUFFERING, false, "hold");
    }

    private boolean arm(DeviceId enb, BufferId window, BufferState state, boolean toReport,
                        String what) {
        try {
            buffers.armMove(enb, triggers.get(enb), window, OWNER, state, toReport);
        } catch (FlowBufException e) {
            LOG.warn("FMM session {}: {}'s {} not armed ({}); the controller makes it",
                     sessionId, enb, what, e.getMessage());
            return false;
        }
        armed.add(enb);
        return true;
    }

    // At the attach, before the settle: waits, at most waitMs, for the eNB's
    // armed move to fire. The UE signals as it joins and the attach call
    // follows, but on a loaded machine the call can reach the agent first:
    // disarmed then, the release goes without the UE's report (unsynced, the
    // whole window to the UE). True when it fired (or was not armed).
    boolean awaitFire(DeviceId enb, long waitMs) throws InterruptedException {
        if (!armed.contains(enb)) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (true) {
            try {
                Optional<BufferStatistics> trigger = buffers.getStatistics(enb, triggers.get(enb));
                if (trigger.isEmpty() || !trigger.get().triggerArmed()) {
                    return true;
                }
            } catch (FlowBufException e) {
                return false; // the settle meets the same agent and says what it can
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(1);
        }
    }

    // At the attach, before any release: disarms every eNB armed since the
    // last attach (one the UE did not go to must not fire later), and
    // returns what each disarm found.
    Map<DeviceId, Disarmed> settle() {
        Map<DeviceId, Disarmed> found = new LinkedHashMap<>();
        for (DeviceId enb : List.copyOf(armed)) {
            armed.remove(enb);
            found.put(enb, buffers.disarm(enb, triggers.get(enb), OWNER));
        }
        return found;
    }

    // Whether the eNB's armed move had fired and moved its window.
    static boolean moved(Map<DeviceId, Disarmed> settled, DeviceId enb) {
        return Optional.ofNullable(settled.get(enb)).flatMap(Disarmed::fire)
                .map(TriggerFire::moved).orElse(false);
    }

    // Removes the triggers, then the steering (a pause is not withdrawn
    // while its buffer holds a signal), going on past failures.
    List<String> close() {
        List<String> failures = new ArrayList<>();
        for (DeviceId enb : triggers.keySet()) {
            try {
                buffers.removeBuffer(enb, triggers.get(enb), OWNER, true);
                if (steering.get(enb) != null) {
                    intents.withdraw(steering.get(enb), OWNER);
                }
            } catch (FlowBufException e) {
                failures.add(enb + " attach trigger: " + e.getMessage());
            }
        }
        return failures;
    }
}
