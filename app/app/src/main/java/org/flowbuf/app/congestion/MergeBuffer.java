/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.Buffer;
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
import org.flowbuf.api.Vport;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The merge buffer of one ordered flow, on its merge switch's buffer agent.
 * Per port by which one of the flow's paths enters the merge switch, a hold
 * buffer the flow's packets from that port are steered into (a pause
 * intent); one trigger buffer that the flow's end markers are steered into
 * (cc_marker_sinks). Armed for the backup's port, the hold buffer holds
 * what the backup brings after a switch-over, and the end marker, behind
 * the old path's last packets, moves it to FORWARDING on the agent (no
 * controller round trip): it releases in order and the flow then passes
 * through it. Not thread-safe: one caller at a time ({@link OrderedMerges}).
 */
final class MergeBuffer {

    /** Owner of the buffers and intents. */
    static final String OWNER = "org.flowbuf.apps.congestion";
    /** How often a wait polls the agent. */
    private static final long POLL_MS = 2;
    /** A trigger keeps the newest marker only: a doorbell, not a queue. */
    private static final BufferSpec TRIGGER = BufferSpec.builder().capacityPackets(1)
            .overflow(OverflowPolicy.DROP_HEAD).build();
    /** A hold takes what the backup brings while the old path drains. */
    private static final BufferSpec HOLD = BufferSpec.builder().capacityPackets(16_384)
            .capacityBytes(16L << 20).build();

    private final int index;
    private final FlowFilter filter;
    private final DeviceId merge;
    private final BufferService buffers;
    private final FlowBufIntentService intents;
    private final BufferId trigger;
    private final Map<PortNumber, BufferId> holds = new LinkedHashMap<>();
    private final List<IntentId> pauses = new ArrayList<>();
    private BufferId armed;
    private volatile long markersSeen;
    private volatile long boundExpiries;
    private volatile boolean isArmed;
    // Switch-overs reported and not settled yet, and the backup's port after
    // the latest (set by the digest's thread, read by the worker).
    private final AtomicInteger unsettled = new AtomicInteger();
    private volatile Optional<PortNumber> latestBackupIn = Optional.empty();

    MergeBuffer(int index, FlowFilter filter, DeviceId merge, BufferService buffers,
                FlowBufIntentService intents) {
        this.index = index;
        this.filter = filter;
        this.merge = merge;
        this.buffers = buffers;
        this.intents = intents;
        this.trigger = BufferId.bufferId(name("marker"));
    }

    /**
     * Creates the trigger and the hold for the backup's port, armed.
     * Anything made is taken back when a step fails.
     *
     * @param backupIn the port the backup enters the merge switch by
     * @return where the merge switch steers the flow's end markers
     */
    CcSink open(PortNumber backupIn) {
        try {
            buffers.createBuffer(merge, trigger, OWNER, TRIGGER, BufferState.BUFFERING);
            CcSink sink = sinkOf(buffers.getBuffer(merge, trigger).orElseThrow(
                    () -> FlowBufException.notFound("%s: trigger %s vanished", merge, trigger))
                                         .vport());
            armNew(backupIn);
            return sink;
        } catch (FlowBufException e) {
            close();
            throw e;
        }
    }

    /**
     * The merge buffer as the instance that ran it left it on the agent
     * (it died; this one leads the flow's source now): its holds by name,
     * their pauses from the Buffer Service's intents. What it had armed is
     * disarmed; every hold but the backup's that still holds is released
     * (as at a bound expiry: its marker may not come); the backup's port is
     * armed again.
     *
     * @param backupIn the port the flow's backup enters by, empty when none
     * @param drainMs  how long a hold that forwarded may take to drain
     * @throws InterruptedException when interrupted
     */
    void adopt(Optional<PortNumber> backupIn, long drainMs) throws InterruptedException {
        String prefix = name("hold-");
        List<BufferId> released = new ArrayList<>();
        for (Buffer b : buffers.getBuffers(merge)) {
            if (b.id().id().startsWith(prefix)) {
                PortNumber port = PortNumber.portNumber(
                        Long.parseLong(b.id().id().substring(prefix.length())));
                holds.put(port, b.id());
                if (!b.state().transmits() && !backupIn.equals(Optional.of(port))) {
                    released.add(b.id());
                }
            }
        }
        for (FlowBufIntent i : intents.getIntents()) {
            if (OWNER.equals(i.owner()) && i.deviceId().equals(merge)
                    && i.type() == FlowBufIntent.Type.PAUSE
                    && i.state() == FlowBufIntent.State.INSTALLED
                    && i.bufferId().filter(holds::containsValue).isPresent()) {
                pauses.add(i.id());
            }
        }
        buffers.disarm(merge, trigger, OWNER);
        for (BufferId hold : released) {
            buffers.moveBuffer(merge, hold, OWNER, BufferState.FORWARDING);
            boundExpiries++;
        }
        if (backupIn.isPresent()) {
            arm(backupIn.get(), drainMs);
        }
    }

    /**
     * A switch-over was reported: one more to settle, and the flow's
     * backup port after it.
     *
     * @param backupIn the port the flow's new backup enters by, empty when none
     */
    void switchedOver(Optional<PortNumber> backupIn) {
        latestBackupIn = backupIn;
        unsettled.incrementAndGet();
    }

    /**
     * Takes one reported switch-over to settle.
     *
     * @return whether another was reported after it (it is overtaken)
     */
    boolean takeSwitchOver() {
        return unsettled.decrementAndGet() > 0;
    }

    /**
     * The port the flow's backup enters by after the latest switch-over.
     *
     * @return port, empty when it has no backup
     */
    Optional<PortNumber> latestBackupIn() {
        return latestBackupIn;
    }

    /**
     * After a switch-over: waits, at most boundMs, for the end marker to
     * fire the trigger (a marker seen); else releases the hold at once and
     * counts a bound expiry.
     *
     * @param boundMs the bound
     * @throws InterruptedException when interrupted
     */
    void settle(long boundMs) throws InterruptedException {
        if (armed == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMs);
        while (boundMs > 0 && System.nanoTime() < deadline && stillArmed()) {
            Thread.sleep(POLL_MS);
        }
        // The disarm also brings the service's view of the hold up to date.
        Disarmed d = buffers.disarm(merge, trigger, OWNER);
        // Not armed from here on, and counted once the hold is released: a
        // reader that sees the count sees the release done.
        isArmed = false;
        if (d.fire().isPresent()) {
            markersSeen++;
        } else {
            buffers.moveBuffer(merge, armed, OWNER, BufferState.FORWARDING);
            boundExpiries++;
        }
        armed = null;
    }

    /**
     * Arms the hold for a (new) backup: its port's hold buffer, emptied of
     * what it forwarded (waited for, at most drainMs), holds again and the
     * trigger's next marker releases it.
     *
     * @param backupIn the port the backup enters the merge switch by
     * @param drainMs  how long a hold that forwarded may take to drain
     * @throws InterruptedException when interrupted
     */
    void arm(PortNumber backupIn, long drainMs) throws InterruptedException {
        BufferId hold = holds.get(backupIn);
        if (hold == null) {
            armNew(backupIn);
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainMs);
        while (occupancy(hold) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MS);
        }
        buffers.moveBuffer(merge, hold, OWNER, BufferState.BUFFERING);
        armTrigger(hold);
    }

    // A first hold on this port: a new buffer, the flow from the port steered into it.
    private void armNew(PortNumber backupIn) {
        BufferId hold = BufferId.bufferId(name("hold-" + backupIn.toLong()));
        buffers.createBuffer(merge, hold, OWNER, HOLD, BufferState.BUFFERING);
        holds.put(backupIn, hold);
        pauses.add(intents.pause(merge, backupIn, filter, Optional.of(hold), OWNER).id());
        armTrigger(hold);
    }

    private void armTrigger(BufferId hold) {
        buffers.armMove(merge, trigger, hold, OWNER, BufferState.FORWARDING, false);
        armed = hold;
        isArmed = true;
    }

    /**
     * Removes the intents, then the buffers (what a hold still has is
     * discarded: the flow is gone), going on past failures.
     *
     * @return what could not be removed
     */
    List<String> close() {
        List<String> failures = new ArrayList<>();
        for (IntentId pause : pauses) {
            try {
                intents.withdraw(pause, OWNER);
            } catch (FlowBufException e) {
                failures.add("intent " + pause + ": " + e.getMessage());
            }
        }
        pauses.clear();
        List<BufferId> all = new ArrayList<>(holds.values());
        all.add(trigger);
        for (BufferId id : all) {
            try {
                if (buffers.getBuffer(merge, id).isPresent()) {
                    buffers.removeBuffer(merge, id, OWNER, true);
                }
            } catch (FlowBufException e) {
                failures.add(id + ": " + e.getMessage());
            }
        }
        holds.clear();
        armed = null;
        isArmed = false;
        return failures;
    }

    /**
     * The counters now.
     *
     * @return state
     */
    OrderedSwitchover state() {
        return new OrderedSwitchover(merge, markersSeen, boundExpiries, isArmed);
    }

    private boolean stillArmed() {
        return buffers.getStatistics(merge, trigger).map(BufferStatistics::triggerArmed)
                .orElse(false);
    }

    private long occupancy(BufferId hold) {
        return buffers.getStatistics(merge, hold).map(BufferStatistics::occupancyPackets)
                .orElse(0L);
    }

    private CcSink sinkOf(org.flowbuf.api.VportId vport) {
        for (Vport v : buffers.getVports(merge)) {
            if (v.id().equals(vport)) {
                return new CcSink(v.switchPort(), v.tag());
            }
        }
        throw FlowBufException.notFound("%s: no vport %s for the end-marker trigger", merge, vport);
    }

    private String name(String what) {
        return "cc" + index + "-" + what;
    }
}
