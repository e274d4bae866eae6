/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

/**
 * How a latency-critical flow reacts to congestion.
 */
public enum CongestionMode {
    /** Thresholds checked in the data plane; local switch-over to the backup (the default). */
    DATAPLANE,
    /** One path, no thresholds: nothing reacts (the paper's No CC baseline). */
    NOCC,
    /**
     * No thresholds; the controller sends a probe along the path every
     * interval and moves the flow to its backup when a probe is late (over
     * the budget) or missing (the paper's ProbingXsec baseline).
     */
    PROBING
}
