/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.onosproject.net.DeviceId;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * Derives a flow's thresholds on each switch of a path from its delay
 * budget B and the switches' idle delays (q_i, p_i):
 *
 * <pre>
 *   D     = sum over the path of (q_i + p_i)       the path's idle delay
 *   t_q,i = max(1, min(X * q_i, B * q_i / D))
 *   t_p,i = max(1, min(X * p_i, B * p_i / D))
 * </pre>
 *
 * <p>X times the idle delay is the paper's rule (its DataplaneX_m runs use
 * X = 2, 5, 12); the cap gives each switch the share of the budget its
 * idle delay is of the path's, so that a flow under every threshold stays
 * within its budget. A budget under D cannot be met even when idle and is
 * refused.
 */
public final class ThresholdPolicy {

    /** X when neither the request nor the configuration sets one (the paper's Dataplane5_m). */
    public static final double DEFAULT_FACTOR = 5.0;

    private final DoubleSupplier factor;
    private final IdleDelay.Source idle;

    /**
     * Creates a policy with a fixed default X.
     *
     * @param factor default X, for requests that set none
     * @param idle   the switches' idle delays
     */
    public ThresholdPolicy(double factor, IdleDelay.Source idle) {
        this(valid(factor), idle);
    }

    /**
     * Creates a policy whose default X is read at each registration (a
     * configuration that can change while flows are registered).
     *
     * @param factor default X, for requests that set none; at least 1
     * @param idle   the switches' idle delays
     */
    public ThresholdPolicy(DoubleSupplier factor, IdleDelay.Source idle) {
        this.factor = factor;
        this.idle = idle;
    }

    private static DoubleSupplier valid(double factor) {
        if (!(factor >= 1.0)) {
            throw new IllegalArgumentException("X must be at least 1");
        }
        return () -> factor;
    }

    /**
     * The default X now.
     *
     * @return factor
     */
    public double factor() {
        return factor.getAsDouble();
    }

    /**
     * Thresholds for every switch of a path.
     *
     * @param path     the path
     * @param budgetUs the flow's budget B
     * @param x        X for this flow
     * @param m        m for this flow
     * @return thresholds per switch, in path order
     * @throws FlowBufException INVALID when the budget is under the path's idle delay
     */
    public Map<DeviceId, CcThresholds> derive(CcPath path, long budgetUs, double x, long m) {
        long idleUs = 0;
        for (CcHop hop : path.hops()) {
            idleUs += idle.of(hop.device(), hop.outPort()).totalUs();
        }
        if (budgetUs < idleUs) {
            throw FlowBufException.invalid("a budget of %d µs is under the path's idle delay "
                                                   + "(%d µs over %s)", budgetUs, idleUs, path);
        }
        Map<DeviceId, CcThresholds> limits = new LinkedHashMap<>();
        for (CcHop hop : path.hops()) {
            IdleDelay d = idle.of(hop.device(), hop.outPort());
            limits.put(hop.device(), new CcThresholds(limit(d.queueUs(), x, budgetUs, idleUs),
                                                      limit(d.procUs(), x, budgetUs, idleUs), m));
        }
        return limits;
    }

    private static long limit(long idleUs, double x, long budgetUs, long pathIdleUs) {
        double times = x * idleUs;
        double share = (double) budgetUs * idleUs / pathIdleUs;
        long t = (long) Math.floor(Math.min(times, share));
        return Math.min(CcThresholds.MAX, Math.max(1, t));
    }
}
