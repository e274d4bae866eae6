/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.app.packet.PacketEmitter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static org.flowbuf.api.apps.LmmService.OWNER;

/**
 * The steps of one handoff on the Buffer Service's public APIs, in the
 * order that loses and reorders nothing, each with its undo.
 */
final class HandoffRun {

    static final BufferSpec SPEC = BufferSpec.defaults();
    /** How long complete() waits for the forwarded buffer to empty. */
    static final long DRAIN_WAIT_MS = 2000;

    private final long id;
    private final HandoffPlan plan;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final List<MarkerWatch> watches = new ArrayList<>();

    BufferId sourceBuffer;
    BufferId forwardedBuffer;
    BufferId newPathBuffer;
    private IntentId sourcePause;
    private IntentId sourceResume;
    private IntentId forwardedPause;
    private IntentId forwardedResume;
    private IntentId newPathPause;
    private IntentId newPathResume;
    private long sourceHold;
    private long targetHold;
    /** Rebuilt by another instance: part of the old path may be gone already. */
    private boolean adopted;

    HandoffRun(long id, HandoffPlan plan, FlowBufIntentService intents, BufferService buffers) {
        this.id = id;
        this.plan = plan;
        this.intents = intents;
        this.buffers = buffers;
    }

    /**
     * A buffered handoff's run rebuilt on another instance after the one
     * that ran it died: its buffers from the record, its intents from the
     * Buffer Service's (cluster-wide) intents of the downlink. An intent not
     * found is one the dead runner had not made yet or had withdrawn.
     *
     * @param h       the handoff's record (buffered, under way)
     * @param intents the intent service
     * @param buffers the task-level Buffer Service
     * @return the run, without marker watches
     */
    static HandoffRun adopt(LmmHandoff h, FlowBufIntentService intents, BufferService buffers) {
        HandoffPlan plan = h.plan();
        HandoffRun run = new HandoffRun(h.id(), plan, intents, buffers);
        run.adopted = true;
        run.sourceBuffer = h.sourceBuffer().orElseThrow();
        run.forwardedBuffer = h.forwardedBuffer().orElseThrow();
        run.newPathBuffer = h.newPathBuffer().orElseThrow();
        OwnedIntents owned = new OwnedIntents(intents, OWNER, plan.downlink());
        FlowBufIntent.Type pause = FlowBufIntent.Type.PAUSE;
        FlowBufIntent.Type resume = FlowBufIntent.Type.RESUME;
        run.sourcePause = owned.find(pause, plan.sourceIn(), run.sourceBuffer);
        run.sourceResume = owned.find(resume, plan.sourceX2(), run.sourceBuffer);
        run.forwardedPause = owned.find(pause, plan.targetX2(), run.forwardedBuffer);
        run.forwardedResume = owned.find(resume, plan.targetUe(), run.forwardedBuffer);
        run.newPathPause = owned.find(pause, plan.targetIn(), run.newPathBuffer);
        run.newPathResume = owned.find(resume, plan.targetUe(), run.newPathBuffer);
        return run;
    }

    private FlowFilter downlink() {
        return plan.downlink();
    }

    /**
     * Handoff start: hold at the source (reusing the buffer the downlink
     * already lives in), open both target buffers, switch the anchor, and let
     * the source forward what it holds over X2 into the first target buffer.
     *
     * @param resident where the downlink lives now, if a handoff placed it
     *                 (entered at the plan's source in-port)
     * @param restored told the resident again when an undo restores it
     * @param anchor   the anchor's path rules
     * @param undo     collects the undo of each step
     */
    void prepare(Optional<Resident> resident, Consumer<Resident> restored, AnchorPaths anchor,
                 Rollback undo) {
        holdAtSource(resident, restored, undo);
        forwardedBuffer = openTargetBuffer("fwd", undo);
        forwardedPause = pause(plan.targetX2(), forwardedBuffer, undo);
        newPathBuffer = openTargetBuffer("new", undo);
        newPathPause = pause(plan.targetIn(), newPathBuffer, undo);
        var before = anchor.steer(downlink(), plan.anchorIn(), plan.anchorToTarget().port());
        undo.add(() -> anchor.restore(downlink(), plan.anchorIn(), before));
        sourceResume = resume(plan.sourceX2(), sourceBuffer);
    }

    /**
     * The controller-buffering baseline: the target eNB punts the downlink to
     * the controller before the anchor switches to it, then the source eNB
     * punts what is still in flight on the old path. An undo releases what a
     * hold took towards the UE's target port (the baseline has no way back
     * into the source's pipeline).
     *
     * @param controller the controller-buffering service
     * @param anchor     the anchor's path rules
     * @param undo       collects the undo of each step
     */
    void holdInController(ControllerBufferingService controller, AnchorPaths anchor,
                          Rollback undo) {
        targetHold = controller.hold(plan.target(), plan.targetIn().port(), downlink()).id();
        undo.add(() -> controller.release(targetHold, plan.targetUe()));
        var before = anchor.steer(downlink(), plan.anchorIn(), plan.anchorToTarget().port());
        undo.add(() -> anchor.restore(downlink(), plan.anchorIn(), before));
        sourceHold = controller.hold(plan.source(), plan.sourceIn().port(), downlink()).id();
    }

    /**
     * Re-attach in the controller-buffering baseline: the packets the source
     * held go out of the target's UE port first (packet-out), then those the
     * target held.
     *
     * @param controller the controller-buffering service
     */
    void releaseFromController(ControllerBufferingService controller) {
        controller.release(sourceHold, plan.targetUe());
        controller.release(targetHold, plan.targetUe());
    }

    /**
     * The no-buffering baseline: only the anchor's path switch.
     *
     * @param anchor the anchor's path rules
     * @param undo   collects the undo
     */
    void switchPathOnly(AnchorPaths anchor, Rollback undo) {
        var before = anchor.steer(downlink(), plan.anchorIn(), plan.anchorToTarget().port());
        undo.add(() -> anchor.restore(downlink(), plan.anchorIn(), before));
    }

    private void holdAtSource(Optional<Resident> resident, Consumer<Resident> restored,
                              Rollback undo) {
        if (resident.isPresent()) {
            Resident r = resident.get();
            sourceBuffer = r.buffer;
            // Same rule as the resident's pause: taken over, buffer to BUFFERING.
            sourcePause = intents.pause(plan.source(), plan.sourceIn().port(), downlink(),
                                        Optional.of(sourceBuffer), OWNER).id();
            intents.withdraw(r.resume, OWNER);
            IntentId pause = sourcePause;
            undo.add(() -> restored.accept(new Resident(
                    r.in, r.out, r.buffer, pause, resume(r.out, r.buffer))));
            return;
        }
        sourceBuffer = BufferId.bufferId("lmm-" + id + "-src");
        buffers.createBuffer(plan.source(), sourceBuffer, OWNER, SPEC, BufferState.BUFFERING);
        undo.add(() -> buffers.removeBuffer(plan.source(), sourceBuffer, OWNER, true));
        sourcePause = pause(plan.sourceIn(), sourceBuffer, undo);
    }

    private BufferId openTargetBuffer(String role, Rollback undo) {
        BufferId buffer = BufferId.bufferId("lmm-" + id + "-" + role);
        buffers.createBuffer(plan.target(), buffer, OWNER, SPEC, BufferState.BUFFERING);
        undo.add(() -> buffers.removeBuffer(plan.target(), buffer, OWNER, true));
        return buffer;
    }

    private IntentId pause(ConnectPoint in, BufferId buffer, Rollback undo) {
        IntentId intent = intents.pause(in.deviceId(), in.port(), downlink(), Optional.of(buffer),
                                        OWNER).id();
        undo.add(() -> intents.withdraw(intent, OWNER));
        return intent;
    }

    private IntentId resume(ConnectPoint out, BufferId buffer) {
        return intents.resume(out.deviceId(), out.port(), downlink(), Optional.of(buffer), OWNER)
                .id();
    }

    /**
     * Re-attach: watch both old-path buffers for the end marker, let the
     * forwarded packets flow to the UE (unless they already do: an adopted
     * run), send the marker down the old path. Each buffer reports once: an
     * adopted run's marker may follow its dead runner's one, and one buffer
     * seeing both says nothing of the other.
     *
     * @param packets  packet-out
     * @param onMarker called per buffer's first marker report (on a transport thread)
     */
    void attach(PacketEmitter packets, Runnable onMarker) {
        watches.add(buffers.watchMarker(plan.source(), sourceBuffer, OWNER, EndMarker.PATTERN,
                                        once(onMarker)));
        watches.add(buffers.watchMarker(plan.target(), forwardedBuffer, OWNER,
                                        EndMarker.PATTERN, once(onMarker)));
        if (forwardedResume == null) {
            forwardedResume = resume(plan.targetUe(), forwardedBuffer);
        }
        packets.emit(plan.anchor(), plan.anchorToSource().port(), EndMarker.frame(downlink()));
    }

    private static Runnable once(Runnable onMarker) {
        AtomicBoolean seen = new AtomicBoolean();
        return () -> {
            if (seen.compareAndSet(false, true)) {
                onMarker.run();
            }
        };
    }

    /**
     * Every eNB saw the marker: once the forwarded buffer has sent its last
     * packet, the new path's buffer delivers.
     *
     * @return whether the forwarded buffer drained in time (ordering kept)
     * @throws InterruptedException when interrupted while waiting
     */
    boolean releaseNewPath() throws InterruptedException {
        boolean drained = awaitEmpty(plan.targetX2(), forwardedBuffer);
        if (newPathResume == null) {
            newPathResume = resume(plan.targetUe(), newPathBuffer);
        }
        return drained;
    }

    private boolean awaitEmpty(ConnectPoint at, BufferId buffer) throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN_WAIT_MS * 1_000_000;
        while (System.nanoTime() < deadline) {
            long held = buffers.getBuffer(at.deviceId(), buffer).map(Buffer::occupancyPackets)
                    .orElse(0L);
            if (held == 0) {
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    /**
     * The old path is closed: its buffers and intents go; the downlink lives
     * on in the new path's buffer.
     *
     * @return the new resident
     */
    Resident retireOldPath() {
        closeWatches();
        withdraw(sourcePause);
        withdraw(sourceResume);
        removeBuffer(plan.source(), sourceBuffer);
        withdraw(forwardedPause);
        withdraw(forwardedResume);
        removeBuffer(plan.target(), forwardedBuffer);
        return new Resident(plan.targetIn(), plan.targetUe(), newPathBuffer, newPathPause,
                            newPathResume);
    }

    // An adopted run skips what its dead runner had already retired.
    private void withdraw(IntentId intent) {
        if (intent == null && adopted) {
            return;
        }
        try {
            intents.withdraw(intent, OWNER);
        } catch (FlowBufException e) {
            if (!adopted || e.reason() != FlowBufException.Reason.NOT_FOUND) {
                throw e;
            }
        }
    }

    private void removeBuffer(DeviceId device, BufferId buffer) {
        try {
            buffers.removeBuffer(device, buffer, OWNER, false);
        } catch (FlowBufException e) {
            if (!adopted || e.reason() != FlowBufException.Reason.NOT_FOUND) {
                throw e;
            }
        }
    }

    void closeWatches() {
        watches.forEach(MarkerWatch::close);
        watches.clear();
    }
}
