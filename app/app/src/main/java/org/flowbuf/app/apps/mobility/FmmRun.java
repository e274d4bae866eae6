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
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.apps.FmmPlan;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.flowbuf.api.apps.FmmService.OWNER;

/**
 * The buffers of one FMM session on the Buffer Service's public APIs: per
 * eNB a buffer with a pause intent (the anchor's copies go in) and a resume
 * intent (what it delivers goes to the UE); which buffer delivers; and the
 * sync point, the newest packet an eNB delivered.
 */
final class FmmRun {

    /** How long an attach waits for the sync point to reach the target. */
    static final long SYNC_WAIT_MS = 5;
    /** How long close waits for the serving buffer to empty. */
    static final long DRAIN_WAIT_MS = 500;
    /** How long an attach waits for the sync point read at handoff. */
    static final long SYNC_READ_WAIT_MS = 100;

    private final long id;
    private final FmmPlan plan;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Executor reader;
    private final Map<DeviceId, BufferId> cellBuffers = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> pauses = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> resumes = new LinkedHashMap<>();
    private PacketId syncPoint;
    // The newest packet the held serving eNB delivered, read after the hold;
    // the serving eNB changes only at the attach, which takes this read.
    private CompletableFuture<Optional<PacketId>> heldLastOut;

    FmmRun(long id, FmmPlan plan, FlowBufIntentService intents, BufferService buffers,
           Executor reader) {
        this.id = id;
        this.plan = plan;
        this.intents = intents;
        this.buffers = buffers;
        this.reader = reader;
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
            BufferId buffer = BufferId.bufferId("fmm-" + id + "-" + enb.toString()
                    .replaceAll("[^A-Za-z0-9_.-]", "_"));
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
    }

    // The eNB's buffer stops delivering and keeps its window.
    void hold(DeviceId enb) {
        buffers.moveBuffer(enb, cellBuffers.get(enb), OWNER, BufferState.BUFFERING);
    }

    // The serving eNB stops delivering at a handoff. What it delivered last
    // is final once the hold returns (the agent notes a packet as it leaves
    // the queue, under the lock the mode change takes), so it is read now,
    // off the caller's thread, while the UE moves: the attach then waits
    // on the radio for two agent calls instead of three.
    void holdServing(DeviceId enb) {
        hold(enb);
        try {
            heldLastOut = CompletableFuture.supplyAsync(() -> lastOut(enb), reader);
        } catch (RejectedExecutionException stopped) {
            heldLastOut = null; // the attach reads it
        }
    }

    private Optional<PacketId> lastOut(DeviceId enb) {
        return buffers.getStatistics(enb, cellBuffers.get(enb))
                .flatMap(BufferStatistics::lastOutPacketId);
    }

    // What the source delivered last: the read made at its hold, or, when
    // there was none or it failed, a read now.
    private Optional<PacketId> deliveredBy(DeviceId source,
                                           CompletableFuture<Optional<PacketId>> read)
            throws InterruptedException {
        if (read != null) {
            try {
                return read.get(SYNC_READ_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                read.cancel(false);
            }
        }
        return lastOut(source);
    }

    // The target delivers in the source's place: it drops every packet up to
    // the newest one an eNB delivered, then delivers the rest. Returns the
    // packets purged, empty when the target did not hold the sync point.
    Optional<Long> deliverFrom(DeviceId source, DeviceId target) throws InterruptedException {
        CompletableFuture<Optional<PacketId>> readAtHold = heldLastOut;
        heldLastOut = null;
        Optional<Long> purged = Optional.of(0L);
        if (!source.equals(target)) {
            deliveredBy(source, readAtHold).ifPresent(delivered -> syncPoint = delivered);
            if (syncPoint != null) {
                purged = purgeToSyncPoint(target);
            }
        }
        buffers.moveBuffer(target, cellBuffers.get(target), OWNER, BufferState.FORWARDING);
        return purged;
    }

    // The target's copy of the sync point may trail the source's by a moment.
    private Optional<Long> purgeToSyncPoint(DeviceId target) throws InterruptedException {
        long deadline = System.nanoTime() + SYNC_WAIT_MS * 1_000_000;
        while (true) {
            Optional<Long> purged = buffers.purgeUpTo(target, cellBuffers.get(target), OWNER,
                                                      syncPoint, true);
            if (purged.isPresent() || System.nanoTime() >= deadline) {
                return purged;
            }
            Thread.sleep(1);
        }
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
        return failures;
    }

    // Delivering buffer: stop steering into it once it is empty (the pause
    // withdraw refuses while a packet passes through; try again).
    private void closeServing(DeviceId enb) throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN_WAIT_MS * 1_000_000;
        while (true) {
            try {
                intents.withdraw(pauses.get(enb), OWNER);
                break;
            } catch (FlowBufException e) {
                if (e.reason() != FlowBufException.Reason.CONFLICT
                        || System.nanoTime() >= deadline) {
                    throw e;
                }
                Thread.sleep(1);
            }
        }
        intents.withdraw(resumes.get(enb), OWNER);
        buffers.removeBuffer(enb, cellBuffers.get(enb), OWNER, true);
    }

    // Holding buffer: its window is copies; drop them.
    private void closeHolding(DeviceId enb) {
        intents.withdraw(resumes.get(enb), OWNER);
        buffers.removeBuffer(enb, cellBuffers.get(enb), OWNER, true);
        intents.withdraw(pauses.get(enb), OWNER);
    }
}
