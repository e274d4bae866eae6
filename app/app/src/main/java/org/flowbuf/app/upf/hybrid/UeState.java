/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.upf.UePlacement;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.flow.FlowRule;

import java.util.List;

import java.util.concurrent.ScheduledFuture;

/**
 * One UE's placement state. Changed only in the UE's turn; read by
 * {@link #view()} at any time (fields are volatile, so a reader sees each
 * field's latest value).
 */
final class UeState {

    /** Where the UE is in its moves. */
    enum Phase {
        /** On the slow path. */
        SLOW,
        /** Held on the fast path, waiting for the end marker from the slow path. */
        PROMOTING,
        /** On the fast path (through its buffer, which forwards). */
        FAST
    }

    final Ip4Address ue;
    volatile Phase phase = Phase.SLOW;
    /** The pause that holds (then passes) its packets on the fast path, and its buffer. */
    volatile IntentId pause;
    volatile BufferId buffer;
    /** The session cell its fast-path downlink counts in, and its tunnel peer there. */
    volatile int cell;
    /** Its downlink entries on the fast path. */
    volatile List<FlowRule> fastRules = List.of();
    volatile int tunnelPeer;
    /** The move under way: which (its marker's number) and since when (ns). */
    volatile long moveSeq;
    volatile long moveStartNanos;
    volatile ScheduledFuture<?> markerTimeout;
    /** The promotion's steps done (ns, as moveStartNanos): where its time goes. */
    volatile long dispatchedNanos;
    volatile long begunNanos;
    /** Its report's trip from the switch's making to the controller (ns), -1 unknown. */
    volatile long reportInFlightNanos = -1;
    volatile long heldNanos;
    volatile long writtenNanos;
    volatile long markerSentNanos;
    volatile long markerBackNanos;
    /** Its end marker came back (markerBackNanos is its time). */
    volatile boolean markerReturned;
    /** Rate sampling on the fast path. */
    volatile long lastBytes = -1;
    volatile long lastSampleNanos;
    volatile long rateBps;
    /** Whether rateBps was measured (a whole window on the fast path), not the placeholder. */
    volatile boolean rateMeasured;
    /** Since when its rate has been under the heavy-hitter rate (ns), or -1. */
    volatile long underSinceNanos = -1;
    /** A demoted UE whose buffer is still to be let go (it held packets then). */
    volatile boolean cleanupPending;
    volatile long promotions;
    volatile long demotions;
    volatile long lastMoveMicros;
    /** The last move's Write acknowledged, µs after its start. */
    volatile long lastActiveMicros;
    volatile long markerTimeouts;

    UeState(Ip4Address ue) {
        this.ue = ue;
    }

    UePlacement view() {
        Phase p = phase;
        return new UePlacement(ue, p == Phase.FAST ? UePlacement.Path.FAST : UePlacement.Path.SLOW,
                               p == Phase.PROMOTING, p == Phase.FAST ? rateBps : 0, promotions,
                               demotions, lastMoveMicros, lastActiveMicros);
    }
}
