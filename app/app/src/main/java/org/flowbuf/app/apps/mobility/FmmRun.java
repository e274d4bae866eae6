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
    /** How long an attach waits for the sync made at handoff. */
    static final long HELD_SYNC_WAIT_MS = 100;

    private final long id;
    private final FmmPlan plan;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Executor syncWorker;
    private final Map<DeviceId, BufferId> cellBuffers = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> pauses = new LinkedHashMap<>();
    private final Map<DeviceId, IntentId> resumes = new LinkedHashMap<>();
    private final Optional<AttachTriggers> triggers;
    private PacketId syncPoint;
    // The sync made while the UE moves; the serving eNB changes only at the
    // attach, which takes it.
    private CompletableFuture<HeldSync> atHold;

    FmmRun(long id, FmmPlan plan, FlowBufIntentService intents, BufferService buffers,
           Executor syncWorker) {
        this.id = id;
        this.plan = plan;
        this.intents = intents;
        this.buffers = buffers;
        this.syncWorker = syncWorker;
        this.triggers = plan.attachSignal()
                .map(signal -> new AttachTriggers(id, signal, intents, buffers));
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
        buffers.moveBuffer(enb, cellBuffers.get(enb), OWNER, BufferState.BUFFERING);
    }

    // The serving eNB stops delivering at a handoff. What it delivered last
    // is final once the hold returns (the agent notes a packet as it leaves
    // the queue, under the lock the mode change takes), so the sync point is
    // read, and the target's window purged up to it, now, off the caller's
    // thread, while the UE moves: the attach then waits on the radio for the
    // target's release alone.
    void holdServing(DeviceId source, DeviceId target) {
        hold(source);
        PacketId earlier = syncPoint;
        try {
            atHold = CompletableFuture.supplyAsync(() -> syncAtHold(source, target, earlier),
                                                   syncWorker);
        } catch (RejectedExecutionException stopped) {
            atHold = null; // the attach syncs on its own
        }
    }

    // On the sync worker: the source's sync point, then the target's purge
    // to it; with an attach signal, the target's release is then armed.
    private HeldSync syncAtHold(DeviceId source, DeviceId target, PacketId earlier) {
        PacketId delivered = lastOut(source).orElse(earlier);
        if (delivered == null || source.equals(target)) {
            return new HeldSync(delivered, target, Optional.empty());
        }
        try {
            Optional<Long> purged = purgeToSyncPoint(target, delivered);
            if (purged.isPresent()) {
                triggers.ifPresent(t -> t.armRelease(target, cellBuffers.get(target)));
            }
            return new HeldSync(delivered, target, purged);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HeldSync(delivered, target, Optional.empty());
        }
    }

    private Optional<PacketId> lastOut(DeviceId enb) {
        return buffers.getStatistics(enb, cellBuffers.get(enb))
                .flatMap(BufferStatistics::lastOutPacketId);
    }

    // What the hold settled, or null when there was nothing to wait for or
    // it failed: the attach then makes the read and the purge itself.
    private static HeldSync settled(CompletableFuture<HeldSync> sync) throws InterruptedException {
        if (sync == null) {
            return null;
        }
        try {
            return sync.get(HELD_SYNC_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            sync.cancel(false);
            return null;
        }
    }

    // The target delivers in the source's place: it drops every packet up to
    // the newest one an eNB delivered, then delivers the rest (unless the
    // UE's attach signal has made the target's agent release it already).
    Delivery deliverFrom(DeviceId source, DeviceId target) throws InterruptedException {
        HeldSync held = settled(atHold);
        atHold = null;
        boolean onSignal = triggers.map(t -> t.settle(target)).orElse(false);
        Optional<Long> purged = Optional.of(0L);
        if (!source.equals(target)) {
            PacketId delivered = held != null ? held.delivered : lastOut(source).orElse(null);
            if (delivered != null) {
                syncPoint = delivered;
            }
            if (syncPoint != null) {
                // A purge made at the hold stands unless the UE went elsewhere
                // or the target's copy was still missing then.
                purged = held != null && held.target.equals(target) && held.purged.isPresent()
                        ? held.purged : purgeToSyncPoint(target, syncPoint);
            }
        }
        // No agent call when the signal released it: the service learnt that at the settle.
        buffers.moveBuffer(target, cellBuffers.get(target), OWNER, BufferState.FORWARDING);
        return new Delivery(purged, onSignal);
    }

    // What an attach did: the packets purged (empty: the target did not hold
    // the sync point) and whether the target's agent had released on the
    // UE's attach signal.
    static final class Delivery {
        final Optional<Long> purged;
        final boolean onSignal;

        Delivery(Optional<Long> purged, boolean onSignal) {
            this.purged = purged;
            this.onSignal = onSignal;
        }
    }

    // The target's copy of the sync point may trail the source's by a moment.
    private Optional<Long> purgeToSyncPoint(DeviceId target, PacketId upTo)
            throws InterruptedException {
        long deadline = System.nanoTime() + SYNC_WAIT_MS * 1_000_000;
        while (true) {
            Optional<Long> purged = buffers.purgeUpTo(target, cellBuffers.get(target), OWNER,
                                                      upTo, true);
            if (purged.isPresent() || System.nanoTime() >= deadline) {
                return purged;
            }
            Thread.sleep(1);
        }
    }

    // A handoff's sync as the hold settled it: the newest packet an eNB
    // delivered (null: none yet) and the purge of the target then named.
    private static final class HeldSync {
        final PacketId delivered;
        final DeviceId target;
        final Optional<Long> purged;

        HeldSync(PacketId delivered, DeviceId target, Optional<Long> purged) {
            this.delivered = delivered;
            this.target = target;
            this.purged = purged;
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
        triggers.ifPresent(t -> failures.addAll(t.close()));
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
