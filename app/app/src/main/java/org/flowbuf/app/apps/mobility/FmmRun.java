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
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmSession;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

import static org.flowbuf.api.apps.FmmService.OWNER;

/**
 * The buffers of one FMM session on the Buffer Service's public APIs: per
 * eNB a buffer (its window) with a pause intent (the anchor's copies go in)
 * and a resume intent (what it delivers goes to the UE), the attach
 * triggers when the plan names the UE's signal, and how the session's
 * handoffs hold, sync and release the windows.
 */
final class FmmRun {

    /** How long close waits for the serving buffer to empty. */
    static final long DRAIN_WAIT_MS = 500;

    private final long id;
    private final FmmPlan plan;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Map<DeviceId, BufferId> cellBuffers = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> pauses = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> resumes = new LinkedHashMap<>();
    private final Optional<AttachTriggers> triggers;
    private final Handoffs handoffs;

    FmmRun(long id, FmmPlan plan, FlowBufIntentService intents, BufferService buffers,
           Executor syncWorker) {
        this.id = id;
        this.plan = plan;
        this.intents = intents;
        this.buffers = buffers;
        this.triggers = plan.attachSignal()
                .map(signal -> new AttachTriggers(id, signal, intents, buffers));
        this.handoffs = plan.ueReports()
                ? new ReportedHandoffs(this, triggers.orElseThrow())
                : new SyncPointHandoffs(this, buffers, triggers, syncWorker);
    }

    /**
     * An open session's run rebuilt on another instance after the one that
     * opened it died: its windows from the record, their intents and the
     * attach triggers' from the Buffer Service's (cluster-wide) intents.
     * Whatever the dead runner had armed is disarmed at the next attach.
     *
     * @param s          the session's record (open)
     * @param intents    the intent service
     * @param buffers    the task-level Buffer Service
     * @param syncWorker where handoffs sync
     * @return the run
     */
    static FmmRun adopt(FmmSession s, FlowBufIntentService intents, BufferService buffers,
                        Executor syncWorker) {
        FmmPlan plan = s.plan();
        FmmRun run = new FmmRun(s.id(), plan, intents, buffers, syncWorker);
        OwnedIntents owned = new OwnedIntents(intents, OWNER, plan.downlink());
        for (FmmPlan.Cell cell : plan.cells()) {
            BufferId window = s.buffers().get(cell.enb());
            run.cellBuffers.put(cell.enb(), window);
            run.pauses.put(cell.enb(), owned.find(FlowBufIntent.Type.PAUSE, cell.in(), window));
            run.resumes.put(cell.enb(), owned.find(FlowBufIntent.Type.RESUME, cell.ue(),
                                                   window));
        }
        run.triggers.ifPresent(t -> t.adopt(plan));
        return run;
    }

    // How the session's handoffs are made.
    Handoffs handoffs() {
        return handoffs;
    }

    // An eNB's buffer id in a session: "fmm-<session>-<device, in id characters>".
    static String bufferName(long session, DeviceId enb) {
        return "fmm-" + session + "-" + enb.toString().replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    Map<DeviceId, BufferId> buffers() {
        return cellBuffers;
    }

    // Every eNB gets its buffer and both intents; all but the serving one then hold.
    void open(Rollback undo) {
        BufferSpec spec = BufferSpec.builder().capacityPackets(plan.windowPackets())
                .overflow(OverflowPolicy.DROP_HEAD).build();
        for (FmmPlan.Cell cell : plan.cells()) {
            DeviceId enb = cell.enb();
            BufferId buffer = BufferId.bufferId(bufferName(id, enb));
            buffers.createBuffer(enb, buffer, OWNER, spec, BufferState.BUFFERING);
            undo.add(() -> buffers.removeBuffer(enb, buffer, OWNER, true));
            cellBuffers.put(enb, buffer);
            IntentId pause = intents.pause(enb, cell.in().port(), plan.downlink(),
                                           Optional.of(buffer), OWNER).id();
            undo.add(() -> intents.withdraw(pause, OWNER));
            pauses.put(enb, pause);
            // The resume intent installs the replay rule (and delivers); the
            // anchor sends nothing yet, so a non-serving buffer is empty here.
            IntentId resume = intents.resume(enb, cell.ue().port(), plan.downlink(),
                                             Optional.of(buffer), OWNER).id();
            undo.add(() -> intents.withdraw(resume, OWNER));
            resumes.put(enb, resume);
            if (!enb.equals(plan.serving())) {
                hold(enb);
            }
        }
        triggers.ifPresent(t -> t.open(plan, undo));
    }

    // The eNB's buffer stops delivering and keeps its window.
    void hold(DeviceId enb) {
        buffers.moveBuffer(enb, window(enb), OWNER, BufferState.BUFFERING);
    }

    // The eNB's buffer delivers what it holds, then what comes.
    void release(DeviceId enb) {
        buffers.moveBuffer(enb, window(enb), OWNER, BufferState.FORWARDING);
    }

    // The eNB's window: its buffer of the session.
    BufferId window(DeviceId enb) {
        return cellBuffers.get(enb);
    }

    // Removes every buffer and intent, going on past failures; returns
    // what could not be removed.
    List<String> close(Optional<DeviceId> delivering) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        for (DeviceId enb : cellBuffers.keySet()) {
            try {
                if (delivering.isPresent() && enb.equals(delivering.get())) {
                    closeServing(enb);
                } else {
                    closeHolding(enb);
                }
            } catch (FlowBufException e) {
                failures.add(enb + ": " + e.getMessage());
            }
        }
        triggers.ifPresent(t -> failures.addAll(t.close()));
        return failures;
    }

    // Delivering buffer: stop steering into it once it is empty (the pause
    // withdraw refuses while a packet passes through; try again).
    private void closeServing(DeviceId enb) throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN_WAIT_MS * 1_000_000;
        while (true) {
            try {
                withdraw(pauses.get(enb));
                break;
            } catch (FlowBufException e) {
                if (e.reason() != FlowBufException.Reason.CONFLICT
                        || System.nanoTime() >= deadline) {
                    throw e;
                }
                Thread.sleep(1);
            }
        }
        withdraw(resumes.get(enb));
        buffers.removeBuffer(enb, window(enb), OWNER, true);
    }

    // Holding buffer: its window is copies; drop them.
    private void closeHolding(DeviceId enb) {
        withdraw(resumes.get(enb));
        buffers.removeBuffer(enb, window(enb), OWNER, true);
        withdraw(pauses.get(enb));
    }

    // An adopted run has no id of an intent its dead runner never made.
    private void withdraw(IntentId intent) {
        if (intent != null) {
            intents.withdraw(intent, OWNER);
        }
    }
}
