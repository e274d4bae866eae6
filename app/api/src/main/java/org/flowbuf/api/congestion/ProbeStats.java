/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import java.util.OptionalLong;

/**
 * What the controller's probes of a PROBING flow found so far: how many it
 * sent, how many did not come back within the interval (lost), how many
 * came back over the budget (late), and the latest one's one-way time.
 */
public final class ProbeStats {

    private final long intervalMs;
    private final long sent;
    private final long lost;
    private final long late;
    private final long lastDelayUs;

    /**
     * Creates a snapshot.
     *
     * @param intervalMs  the probe interval
     * @param sent        probes sent
     * @param lost        probes not back within the interval
     * @param late        probes back over the flow's budget
     * @param lastDelayUs the latest probe's one-way time, negative before the first is back
     */
    public ProbeStats(long intervalMs, long sent, long lost, long late, long lastDelayUs) {
        this.intervalMs = intervalMs;
        this.sent = sent;
        this.lost = lost;
        this.late = late;
        this.lastDelayUs = lastDelayUs;
    }

    /**
     * The probe interval.
     *
     * @return milliseconds
     */
    public long intervalMs() {
        return intervalMs;
    }

    /**
     * Probes sent.
     *
     * @return count
     */
    public long sent() {
        return sent;
    }

    /**
     * Probes that did not come back within the interval.
     *
     * @return count
     */
    public long lost() {
        return lost;
    }

    /**
     * Probes that came back over the flow's budget.
     *
     * @return count
     */
    public long late() {
        return late;
    }

    /**
     * The latest returned probe's one-way time (packet-out at the source
     * switch to packet-in from the far-end switch, as the controller sees it).
     *
     * @return microseconds, empty before the first probe is back
     */
    public OptionalLong lastDelayUs() {
        return lastDelayUs < 0 ? OptionalLong.empty() : OptionalLong.of(lastDelayUs);
    }

    @Override
    public String toString() {
        return "probes every " + intervalMs + " ms: " + sent + " sent, " + lost + " lost, " + late
                + " late" + (lastDelayUs < 0 ? "" : ", last " + lastDelayUs + " us");
    }
}
