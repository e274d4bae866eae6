/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.ProbeStats;
import org.flowbuf.api.congestion.SwitchOver;

import java.util.Optional;

/**
 * The probing decision for one PROBING flow, on times it is given (so a
 * test drives it with a fake clock): one probe outstanding at a time; at
 * a tick, a probe out for an interval or more is lost (the paper: "when no
 * probe was returned within the probing interval, the controller assumed
 * that the packet was lost and the link congested"), and a probe back
 * with a one-way time over the flow's budget is late. Either means: move the flow.
 * Not thread-safe; {@link ProbeScheduler} guards it.
 */
final class ProbeMonitor {

    private final long intervalMs;
    private final long budgetNs;
    private long nextSeq = 1;
    private long outstandingSeq;   // 0: none out
    private long outstandingSentNs;
    private long sent;
    private long lost;
    private long late;
    private long lastDelayNs = -1;

    /**
     * Creates the monitor of a flow.
     *
     * @param intervalMs the probe interval
     * @param budgetUs   the flow's one-way delay budget
     */
    ProbeMonitor(long intervalMs, long budgetUs) {
        this.intervalMs = intervalMs;
        this.budgetNs = budgetUs * 1000;
    }

    /** What a tick does. */
    enum Tick {
        /** Nothing out: send a probe. */
        SEND,
        /** The probe out was sent at least an interval ago: lost (move the flow), then send. */
        LOST,
        /** The probe out is younger than an interval (a late timer): wait for it. */
        WAIT
    }

    /**
     * A tick of the timer: a probe out for an interval or more is lost (a
     * tick that comes early, or twice in a row after a stalled timer, does
     * not count a probe lost before its interval is up).
     *
     * @param nowNs the time of the tick
     * @return what to do
     */
    Tick tick(long nowNs) {
        if (outstandingSeq == 0) {
            return Tick.SEND;
        }
        if (nowNs - outstandingSentNs < intervalMs * 1_000_000) {
            return Tick.WAIT;
        }
        outstandingSeq = 0;
        lost++;
        return Tick.LOST;
    }

    /**
     * The sequence number the next probe will carry.
     *
     * @return sequence number
     */
    long nextSeq() {
        return nextSeq;
    }

    /**
     * A probe leaves now.
     *
     * @param nowNs the time it is sent
     * @return its sequence number
     */
    long send(long nowNs) {
        outstandingSeq = nextSeq++;
        outstandingSentNs = nowNs;
        sent++;
        return outstandingSeq;
    }

    /**
     * A probe came back.
     *
     * @param seq   its sequence number
     * @param nowNs when it arrived
     * @return PROBE_LATE when it is the outstanding one and took longer
     *         than the budget; empty when in time, or stale (already
     *         counted lost, or sent before a move), which is ignored
     */
    Optional<SwitchOver.Cause> back(long seq, long nowNs) {
        if (seq != outstandingSeq || seq == 0) {
            return Optional.empty();
        }
        outstandingSeq = 0;
        lastDelayNs = Math.max(0, nowNs - outstandingSentNs);
        if (lastDelayNs > budgetNs) {
            late++;
            return Optional.of(SwitchOver.Cause.PROBE_LATE);
        }
        return Optional.empty();
    }

    /** The flow moved: a probe still out went by the path it left and says nothing now. */
    void moved() {
        outstandingSeq = 0;
    }

    /**
     * The latest returned probe's one-way time.
     *
     * @return nanoseconds, negative before the first
     */
    long lastDelayNs() {
        return lastDelayNs;
    }

    /**
     * The counters now.
     *
     * @return stats
     */
    ProbeStats stats() {
        return new ProbeStats(intervalMs, sent, lost, late,
                              lastDelayNs < 0 ? -1 : lastDelayNs / 1000);
    }
}
