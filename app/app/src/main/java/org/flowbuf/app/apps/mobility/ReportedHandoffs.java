/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.Disarmed;
import org.flowbuf.api.TriggerFire;
import org.onosproject.net.DeviceId;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Handoffs the UE drives (plans with ueReports), made by the agents: the
 * handoff call arms the source's hold, so that the UE's signal as it
 * leaves stops the source there and then (the source delivers until the UE
 * is gone, not from the call on), and, on a worker, the target's release:
 * the UE's signal as it joins reports the newest packet it received, and
 * the target's agent drops its window up to it and delivers the rest
 * (what the source sent into the radio the UE was leaving included). The
 * attach call disarms, does what a missing signal left undone, and counts.
 */
final class ReportedHandoffs implements Handoffs {

    /** How long an attach waits for the target's release to be armed. */
    static final long ARM_WAIT_MS = 100;

    private final FmmRun run;
    private final AttachTriggers triggers;
    private final Executor worker;
    // The newest target's arm, made while the UE moves (the worker runs arms in order).
    private CompletableFuture<Void> targetArmed;

    ReportedHandoffs(FmmRun run, AttachTriggers triggers, Executor worker) {
        this.run = run;
        this.triggers = triggers;
        this.worker = worker;
    }

    @Override
    public void start(DeviceId source, DeviceId target) {
        // An eNB has one trigger: back to the source, it is the release's.
        if (source.equals(target) || !triggers.armHold(source, run.window(source))) {
            run.hold(source);
        }
        armTarget(target);
    }

    @Override
    public void retarget(DeviceId target) {
        armTarget(target);
    }

    private void armTarget(DeviceId target) {
        Runnable arm = () -> triggers.armRelease(target, run.window(target), true);
        try {
            targetArmed = CompletableFuture.runAsync(arm, worker);
        } catch (RejectedExecutionException stopped) {
            targetArmed = null;
            arm.run();
        }
    }

    @Override
    public Delivery deliver(DeviceId source, DeviceId target) throws InterruptedException {
        awaitTargetArmed();
        Map<DeviceId, Disarmed> settled = triggers.settle();
        boolean held = !source.equals(target) && AttachTriggers.moved(settled, source);
        // Every eNB but the target holds: the source if the UE's signal did
        // not stop it, and one the UE was sent to before a retarget (no agent
        // call where the service learnt the hold at the settle).
        Set<DeviceId> holding = new LinkedHashSet<>(settled.keySet());
        holding.add(source);
        holding.remove(target);
        holding.forEach(run::hold);
        Optional<TriggerFire> released = Optional.ofNullable(settled.get(target))
                .flatMap(Disarmed::fire).filter(TriggerFire::moved);
        // Without the UE's report the target delivers its whole window: the
        // UE may get a packet twice, never miss one.
        run.release(target);
        Optional<Long> purged = released
                .filter(f -> f.reportSync() == TriggerFire.ReportSync.SYNCED)
                .map(TriggerFire::purgedPackets);
        return new Delivery(purged, released.isPresent(), held);
    }

    private void awaitTargetArmed() throws InterruptedException {
        if (targetArmed == null) {
            return;
        }
        try {
            targetArmed.get(ARM_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // The attach releases; an arm that lands later is disarmed at the next attach.
            targetArmed.cancel(false);
        } finally {
            targetArmed = null;
        }
    }
}
