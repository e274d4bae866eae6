/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.PacketId;
import org.onosproject.net.DeviceId;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.flowbuf.api.apps.FmmService.OWNER;

/**
 * Handoffs synced by the controller: the handoff call holds the source;
 * what it delivered last, its sync point, is then final, so a worker reads
 * it and purges the target's window up to it while the UE moves, whether
 * the target's copy of it has arrived or not (and, with an attach signal,
 * arms the target's release on its agent); the attach releases the target
 * unless the UE's signal has.
 */
final class SyncPointHandoffs implements Handoffs {

    /** How long an attach waits for the sync made at handoff. */
    static final long HELD_SYNC_WAIT_MS = 100;

    private final FmmRun run;
    private final BufferService buffers;
    private final Optional<AttachTriggers> triggers;
    private final Executor syncWorker;
    private PacketId syncPoint;
    // The sync made while the UE moves; the serving eNB changes only at the
    // attach, which takes it.
    private CompletableFuture<HeldSync> atHold;

    SyncPointHandoffs(FmmRun run, BufferService buffers, Optional<AttachTriggers> triggers,
                      Executor syncWorker) {
        this.run = run;
        this.buffers = buffers;
        this.triggers = triggers;
        this.syncWorker = syncWorker;
    }

    // The serving eNB stops delivering. What it delivered last is final once
    // the hold returns (the agent notes a packet as it leaves the queue,
    // under the lock the mode change takes), so the sync point is read, and
    // the target's window purged up to it, now, off the caller's thread,
    // while the UE moves: the attach then waits on the radio for the
    // target's release alone.
    @Override
    public void start(DeviceId source, DeviceId target) {
        run.hold(source);
        PacketId earlier = syncPoint;
        try {
            atHold = CompletableFuture.supplyAsync(() -> syncAtHold(source, target, earlier),
                                                   syncWorker);
        } catch (RejectedExecutionException stopped) {
            atHold = null; // the attach syncs on its own
        }
    }

    // The attach purges a target the hold's sync did not name.
    @Override
    public void retarget(DeviceId target) {
    }

    // On the sync worker: the source's sync point, then the target's purge
    // to it; with an attach signal, the target's release is then armed.
    private HeldSync syncAtHold(DeviceId source, DeviceId target, PacketId earlier) {
        PacketId delivered = lastOut(source).orElse(earlier);
        if (delivered == null || source.equals(target)) {
            return new HeldSync(delivered, target, Optional.empty());
        }
        Optional<Long> purged = purgeToSyncPoint(target, delivered);
        if (purged.isPresent()) {
            triggers.ifPresent(t -> t.armRelease(target, run.window(target), false));
        }
        return new HeldSync(delivered, target, purged);
    }

    private Optional<PacketId> lastOut(DeviceId enb) {
        return buffers.getStatistics(enb, run.window(enb))
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
    @Override
    public Delivery deliver(DeviceId source, DeviceId target) throws InterruptedException {
        HeldSync held = settled(atHold);
        atHold = null;
        boolean onSignal = triggers.map(t -> AttachTriggers.moved(t.settle(), target))
                .orElse(false);
        Optional<Long> purged = Optional.of(0L);
        if (!source.equals(target)) {
            PacketId delivered = held != null ? held.delivered : lastOut(source).orElse(null);
            if (delivered != null) {
                syncPoint = delivered;
            }
            if (syncPoint != null) {
                // A purge made at the hold stands unless the UE went elsewhere
                // or its agent could not sync it then.
                purged = held != null && held.target.equals(target) && held.purged.isPresent()
                        ? held.purged : purgeToSyncPoint(target, syncPoint);
            }
        }
        // No agent call when the signal released it: the service learnt that at the settle.
        run.release(target);
        return new Delivery(purged, onSignal, false);
    }

    // The target's copy of the sync point may trail the source's, by as long
    // as a loaded machine leaves the target's switch or agent unscheduled
    // (over 100 ms seen): its agent then purges what the window holds and
    // drops the late copies up to the sync point as they come, so the attach
    // releases nothing the source delivered, whatever the timing.
    private Optional<Long> purgeToSyncPoint(DeviceId target, PacketId upTo) {
        return buffers.purgeToSyncPoint(target, run.window(target), OWNER, upTo);
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
}
