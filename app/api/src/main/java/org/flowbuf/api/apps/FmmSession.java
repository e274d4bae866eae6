/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableMap;
import org.flowbuf.api.BufferId;
import org.onosproject.net.DeviceId;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An FMM session at one moment (immutable; each change gives a new one).
 */
public final class FmmSession {

    /** Where the UE is. */
    public enum State {
        /** The UE is attached to the serving eNB, whose buffer delivers. */
        ATTACHED,
        /** A handoff started: every eNB buffer holds; the UE may be detached. */
        DETACHED,
        /** Closed: buffers, intents and the anchor's multicast are gone. */
        CLOSED,
        /** A step failed; see the failure. */
        FAILED
    }

    private final long id;
    private final FmmPlan plan;
    private final State state;
    private final DeviceId serving;
    private final DeviceId target;
    private final Map<DeviceId, BufferId> buffers;
    private final int multicastGroup;
    private final Counters counters;
    private final String failure;

    /**
     * Creates a session record.
     *
     * @param id             session id
     * @param plan           its plan
     * @param state          state
     * @param serving        the eNB that serves (or last served) the UE
     * @param target         the eNB a started handoff goes to, null when ATTACHED
     * @param buffers        each eNB's buffer
     * @param multicastGroup the anchor's multicast group
     * @param counters       handoff counters
     * @param failure        what failed, or null
     */
    public FmmSession(long id, FmmPlan plan, State state, DeviceId serving, DeviceId target,
                      Map<DeviceId, BufferId> buffers, int multicastGroup, Counters counters,
                      String failure) {
        this.id = id;
        this.plan = Objects.requireNonNull(plan);
        this.state = Objects.requireNonNull(state);
        this.serving = Objects.requireNonNull(serving);
        this.target = target;
        this.buffers = ImmutableMap.copyOf(buffers);
        this.multicastGroup = multicastGroup;
        this.counters = Objects.requireNonNull(counters);
        this.failure = failure;
    }

    /**
     * Session id.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * The plan.
     *
     * @return plan
     */
    public FmmPlan plan() {
        return plan;
    }

    /**
     * State.
     *
     * @return state
     */
    public State state() {
        return state;
    }

    /**
     * The eNB serving the UE, or the one it left during a handoff.
     *
     * @return device
     */
    public DeviceId serving() {
        return serving;
    }

    /**
     * Where a started handoff goes.
     *
     * @return the target eNB while DETACHED
     */
    public Optional<DeviceId> target() {
        return Optional.ofNullable(target);
    }

    /**
     * Each eNB's buffer.
     *
     * @return eNB to buffer
     */
    public Map<DeviceId, BufferId> buffers() {
        return buffers;
    }

    /**
     * The anchor's multicast group for the downlink.
     *
     * @return group id
     */
    public int multicastGroup() {
        return multicastGroup;
    }

    /**
     * Handoff counters.
     *
     * @return counters
     */
    public Counters counters() {
        return counters;
    }

    /**
     * What failed.
     *
     * @return failure, when FAILED
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * The session with a handoff started towards target.
     *
     * @param to the target eNB
     * @return DETACHED session
     */
    public FmmSession detachedTowards(DeviceId to) {
        return new FmmSession(id, plan, State.DETACHED, serving, to, buffers, multicastGroup,
                              counters, null);
    }

    /**
     * The session attached to a new serving eNB.
     *
     * @param now      the serving eNB
     * @param counters counters with the finished handoff
     * @return ATTACHED session
     */
    public FmmSession attachedTo(DeviceId now, Counters counters) {
        return new FmmSession(id, plan, State.ATTACHED, now, null, buffers, multicastGroup,
                              counters, null);
    }

    /**
     * The session in another state (CLOSED, FAILED).
     *
     * @param next  state
     * @param cause what failed, or null
     * @return session
     */
    public FmmSession ended(State next, String cause) {
        return new FmmSession(id, plan, next, serving, target, buffers, multicastGroup, counters,
                              cause);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("state", state)
                .add("serving", serving).add("target", target).add("counters", counters)
                .add("failure", failure).toString();
    }

    /**
     * What the handoffs of a session did.
     */
    public static final class Counters {
        /** No handoff yet. */
        public static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0);

        private final long handoffs;
        private final long unsynced;
        private final long purgedPackets;
        private final long lastSyncMicros;
        private final long releasedOnSignal;
        private final long heldOnSignal;

        /**
         * Creates counters.
         *
         * @param handoffs       completed handoffs (attaches)
         * @param unsynced       attaches whose sync point the target did not hold
         *                       (its window was released whole: duplicates or a gap
         *                       are possible)
         * @param purgedPackets  packets the syncs purged, all handoffs
         * @param lastSyncMicros time the last attach took (what was left of the
         *                       sync, and the release)
         * @param releasedOnSignal attaches the target's agent had released on the
         *                       UE's attach signal before the attach call came
         * @param heldOnSignal   handoffs whose source's agent held its window on
         *                       the UE's signal as it left (plans with ueReports)
         */
        public Counters(long handoffs, long unsynced, long purgedPackets, long lastSyncMicros,
                        long releasedOnSignal, long heldOnSignal) {
            this.releasedOnSignal = releasedOnSignal;
            this.heldOnSignal = heldOnSignal;
            this.handoffs = handoffs;
            this.unsynced = unsynced;
            this.purgedPackets = purgedPackets;
            this.lastSyncMicros = lastSyncMicros;
        }

        /**
         * Completed handoffs.
         *
         * @return count
         */
        public long handoffs() {
            return handoffs;
        }

        /**
         * Attaches whose sync point the target did not hold.
         *
         * @return count
         */
        public long unsynced() {
            return unsynced;
        }

        /**
         * Packets purged by every sync.
         *
         * @return packets
         */
        public long purgedPackets() {
            return purgedPackets;
        }

        /**
         * Time of the last attach: the wait for the sync, the release.
         *
         * @return microseconds
         */
        public long lastSyncMicros() {
            return lastSyncMicros;
        }

        /**
         * Attaches the target's agent released on the UE's attach signal.
         *
         * @return count
         */
        public long releasedOnSignal() {
            return releasedOnSignal;
        }

        /**
         * Handoffs whose source's agent held on the UE's signal as it left.
         *
         * @return count
         */
        public long heldOnSignal() {
            return heldOnSignal;
        }

        /**
         * These counters plus one handoff.
         *
         * @param synced   whether the sync point was found
         * @param purged   packets purged
         * @param micros   time of the attach
         * @param released whether the target's agent had released on the UE's signal
         * @param held     whether the source's agent had held on the UE's signal
         * @return new counters
         */
        public Counters plusHandoff(boolean synced, long purged, long micros, boolean released,
                                    boolean held) {
            return new Counters(handoffs + 1, unsynced + (synced ? 0 : 1), purgedPackets + purged,
                                micros, releasedOnSignal + (released ? 1 : 0),
                                heldOnSignal + (held ? 1 : 0));
        }

        @Override
        public String toString() {
            return MoreObjects.toStringHelper(this).add("handoffs", handoffs)
                    .add("unsynced", unsynced).add("purgedPackets", purgedPackets)
                    .add("lastSyncMicros", lastSyncMicros)
                    .add("releasedOnSignal", releasedOnSignal)
                    .add("heldOnSignal", heldOnSignal).toString();
        }
    }
}
