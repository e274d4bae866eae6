/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import org.flowbuf.api.BufferId;

import java.util.Objects;
import java.util.Optional;

/**
 * One LMM handoff (immutable; each step records a new value).
 */
public final class LmmHandoff {

    /** Where a handoff is. */
    public enum State {
        /** Buffers set, path switched at the anchor; the UE is detached. */
        DETACHED,
        /** The UE re-attached: in-flight packets flow; waiting for the end marker. */
        ATTACHED,
        /** Every eNB reported the end marker; the new path flows. */
        COMPLETED,
        /** A step failed; see failure(). */
        FAILED
    }

    private final long id;
    private final HandoffPlan plan;
    private final State state;
    private final BufferId sourceBuffer;
    private final BufferId forwardedBuffer;
    private final BufferId newPathBuffer;
    private final int markerReports;
    private final String failure;

    /**
     * Creates a handoff record.
     *
     * @param id              handoff id
     * @param plan            where it happens
     * @param state           where it is
     * @param sourceBuffer    source eNB buffer (null: no-buffering baseline)
     * @param forwardedBuffer target buffer for packets forwarded by the source
     * @param newPathBuffer   target buffer for the anchor's new path
     * @param markerReports   eNB buffers that reported the end marker
     * @param failure         why it failed, or null
     */
    public LmmHandoff(long id, HandoffPlan plan, State state, BufferId sourceBuffer,
                      BufferId forwardedBuffer, BufferId newPathBuffer, int markerReports,
                      String failure) {
        this.id = id;
        this.plan = Objects.requireNonNull(plan);
        this.state = Objects.requireNonNull(state);
        this.sourceBuffer = sourceBuffer;
        this.forwardedBuffer = forwardedBuffer;
        this.newPathBuffer = newPathBuffer;
        this.markerReports = markerReports;
        this.failure = failure;
    }

    /**
     * Handoff id.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * Where it happens.
     *
     * @return plan
     */
    public HandoffPlan plan() {
        return plan;
    }

    /**
     * Where it is.
     *
     * @return state
     */
    public State state() {
        return state;
    }

    /**
     * The source eNB's buffer (holds, then forwards over X2).
     *
     * @return buffer id, empty in the no-buffering baseline
     */
    public Optional<BufferId> sourceBuffer() {
        return Optional.ofNullable(sourceBuffer);
    }

    /**
     * The target's first buffer: packets forwarded by the source.
     *
     * @return buffer id, empty in the no-buffering baseline
     */
    public Optional<BufferId> forwardedBuffer() {
        return Optional.ofNullable(forwardedBuffer);
    }

    /**
     * The target's second buffer: the anchor's new path; the UE's downlink
     * keeps flowing through it after the handoff.
     *
     * @return buffer id, empty in the no-buffering baseline
     */
    public Optional<BufferId> newPathBuffer() {
        return Optional.ofNullable(newPathBuffer);
    }

    /**
     * How many eNB buffers reported the end marker (2 when complete).
     *
     * @return count
     */
    public int markerReports() {
        return markerReports;
    }

    /**
     * Why the handoff failed.
     *
     * @return message, empty unless FAILED
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * This handoff in another state.
     *
     * @param newState state
     * @return new record
     */
    public LmmHandoff with(State newState) {
        return new LmmHandoff(id, plan, newState, sourceBuffer, forwardedBuffer, newPathBuffer,
                              markerReports, failure);
    }

    /**
     * This handoff with one more marker report.
     *
     * @return new record
     */
    public LmmHandoff withMarkerReport() {
        return new LmmHandoff(id, plan, state, sourceBuffer, forwardedBuffer, newPathBuffer,
                              markerReports + 1, failure);
    }

    /**
     * This handoff, failed.
     *
     * @param why message
     * @return new record
     */
    public LmmHandoff failed(String why) {
        return new LmmHandoff(id, plan, State.FAILED, sourceBuffer, forwardedBuffer,
                              newPathBuffer, markerReports, Objects.requireNonNull(why));
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("state", state)
                .add("plan", plan).add("markerReports", markerReports)
                .add("failure", failure).toString();
    }
}
