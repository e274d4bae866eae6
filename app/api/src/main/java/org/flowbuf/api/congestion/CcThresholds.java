/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

/**
 * A flow's thresholds on one switch: the cc_thresholds entry's limits.
 */
public final class CcThresholds {

    /** The P4 fields are bit&lt;32&gt; (congestion.p4's limits action). */
    public static final long MAX = 0xFFFF_FFFFL;

    private final long queueUs;
    private final long procUs;
    private final long m;

    /**
     * Creates thresholds.
     *
     * @param queueUs t_q, microseconds, 0..MAX
     * @param procUs  t_p, microseconds, 0..MAX
     * @param m       consecutive packets over a threshold that mean congestion, 1..MAX
     */
    public CcThresholds(long queueUs, long procUs, long m) {
        if (queueUs < 0 || queueUs > MAX || procUs < 0 || procUs > MAX) {
            throw new IllegalArgumentException("thresholds must be 0.." + MAX + " µs");
        }
        if (m < 1 || m > MAX) {
            throw new IllegalArgumentException("m must be 1.." + MAX);
        }
        this.queueUs = queueUs;
        this.procUs = procUs;
        this.m = m;
    }

    /**
     * Queuing-delay threshold t_q.
     *
     * @return microseconds
     */
    public long queueUs() {
        return queueUs;
    }

    /**
     * Processing-delay threshold t_p.
     *
     * @return microseconds
     */
    public long procUs() {
        return procUs;
    }

    /**
     * Consecutive packets over a threshold that make the flow congested.
     *
     * @return m
     */
    public long m() {
        return m;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CcThresholds)) {
            return false;
        }
        CcThresholds t = (CcThresholds) o;
        return queueUs == t.queueUs && procUs == t.procUs && m == t.m;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(queueUs * 31 + procUs) * 31 + Long.hashCode(m);
    }

    @Override
    public String toString() {
        return "t_q=" + queueUs + "us t_p=" + procUs + "us m=" + m;
    }
}
