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

/**
 * Handoffs the UE drives (plans with ueReports), made by the agents: the
 * handoff call arms the source's hold, so that the UE's signal as it
 * leaves stops the source there and then (the source delivers until the UE
 * is gone, not from the call on), and the target's release: the UE's
 * signal as it joins reports the newest packet it received, and the
 * target's agent drops its window up to it and delivers the rest (what the
 * source sent into the radio the UE was leaving included). Both arms are
 * made before the handoff call returns: the UE moves on the call's answer,
 * so its signals cannot come before them, however slow the agent's answer
 * (armed on a worker, a loaded controller let the UE's join signal pass an
 * unarmed target, whose whole window then went to the UE). The source
 * delivers meanwhile, so the call's length costs no throughput. The attach
 * call waits a little for a join signal still on its way, disarms, does
 * what a missing signal left undone, and counts.
 */
final class ReportedHandoffs implements Handoffs {

    /**
     * How long an attach waits for the UE's join signal to fire the target's
     * release (it left the UE before the call; a loaded switch may forward
     * it after the call's disarm). A UE that sends none costs this much.
     */
    static final long SIGNAL_WAIT_MS = 50;

    private final FmmRun run;
    private final AttachTriggers triggers;

    ReportedHandoffs(FmmRun run, AttachTriggers triggers) {
        this.run = run;
        this.triggers = triggers;
    }

    @Override
    public void start(DeviceId source, DeviceId target) {
        // An eNB has one trigger: back to the source, it is the release's.
        if (source.equals(target) || !triggers.armHold(source, run.window(source))) {
            run.hold(source);
        }
        triggers.armRelease(target, run.window(target), true);
    }

    @Override
    public void retarget(DeviceId target) {
        triggers.armRelease(target, run.window(target), true);
    }

    @Override
    public Delivery deliver(DeviceId source, DeviceId target) throws InterruptedException {
        triggers.awaitFire(target, SIGNAL_WAIT_MS);
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
}
