/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.flowbuf.app.congestion.IdleDelay;
import org.flowbuf.app.congestion.ThresholdPolicy;

/**
 * The congestion service's netcfg section (apps."org.flowbuf.app".congestion):
 * the default threshold factor X, the idle delays of a switch port whose
 * link gives none (and of the ports to hosts), and how long an ordered
 * flow's merge buffer waits for an end marker (markerBoundMs).
 */
public final class CcSettings {

    /** Idle queuing delay when the netcfg gives none, µs. */
    public static final long DEFAULT_IDLE_QUEUE_US = 50;
    /** Idle processing delay when the netcfg gives none, µs. */
    public static final long DEFAULT_IDLE_PROC_US = 50;
    /** How long a merge buffer waits for an end marker when the netcfg says nothing, ms. */
    public static final long DEFAULT_MARKER_BOUND_MS = 500;

    private final double factor;
    private final IdleDelay idle;
    private final long markerBoundMs;

    private CcSettings(double factor, IdleDelay idle, long markerBoundMs) {
        this.factor = factor;
        this.idle = idle;
        this.markerBoundMs = markerBoundMs;
    }

    /**
     * Every default: what a netcfg without the section gives.
     *
     * @return settings
     */
    public static CcSettings defaults() {
        return new CcSettings(ThresholdPolicy.DEFAULT_FACTOR,
                              new IdleDelay(DEFAULT_IDLE_QUEUE_US, DEFAULT_IDLE_PROC_US),
                              DEFAULT_MARKER_BOUND_MS);
    }

    /**
     * The section's settings, defaults where it says nothing.
     *
     * @param json the section (a missing node: every default)
     * @return the settings
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public static CcSettings parse(JsonNode json) {
        if (json.isMissingNode()) {
            return defaults();
        }
        String where = "netcfg apps.org.flowbuf.app.congestion";
        double factor = json.path("factor").asDouble(ThresholdPolicy.DEFAULT_FACTOR);
        if (!(factor >= 1.0) || factor > 1000) {
            throw new IllegalArgumentException(where + ".factor: must be 1..1000");
        }
        long bound = json.path("markerBoundMs").asLong(DEFAULT_MARKER_BOUND_MS);
        if (bound < 1 || bound > 60_000) {
            throw new IllegalArgumentException(where + ".markerBoundMs: must be 1..60000 ms");
        }
        return new CcSettings(factor, idle(json, where), bound);
    }

    /**
     * Idle delays from a section's idleQueueUs and idleProcUs, the defaults
     * where it gives none.
     *
     * @param json  the section
     * @param where where it is, for the error
     * @return the delays
     * @throws IllegalArgumentException when one is out of range
     */
    public static IdleDelay idle(JsonNode json, String where) {
        long queue = json.path("idleQueueUs").asLong(DEFAULT_IDLE_QUEUE_US);
        long proc = json.path("idleProcUs").asLong(DEFAULT_IDLE_PROC_US);
        if (queue < 1 || proc < 1 || queue > 1_000_000 || proc > 1_000_000) {
            throw new IllegalArgumentException(where + ": idleQueueUs and idleProcUs must be "
                                                       + "1..1000000 µs");
        }
        return new IdleDelay(queue, proc);
    }

    /**
     * The default threshold factor X.
     *
     * @return X
     */
    public double factor() {
        return factor;
    }

    /**
     * How long an ordered flow's merge buffer waits for an end marker.
     *
     * @return milliseconds
     */
    public long markerBoundMs() {
        return markerBoundMs;
    }

    /**
     * Idle delays of a port the netcfg says nothing about.
     *
     * @return delays
     */
    public IdleDelay defaultIdle() {
        return idle;
    }
}
