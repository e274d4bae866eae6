/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;

import java.util.Objects;
import java.util.Optional;

/**
 * What registering a latency-critical flow asks for: which packets (a
 * 5-tuple, the parts it leaves out match anything), between which hosts,
 * the end-to-end delay budget, m and the threshold factor X.
 */
public final class CcFlowRequest {

    /** X is at least 1 (a threshold under the idle delay would switch an idle flow). */
    public static final double MIN_FACTOR = 1.0;
    /** Generous upper bound on X; the paper uses 2, 5 and 12. */
    public static final double MAX_FACTOR = 1000.0;
    /** Shortest probe interval: a probe's round trip through the controller takes ms. */
    public static final long MIN_PROBE_INTERVAL_MS = 100;
    /** Longest probe interval (the paper probes every 1, 2 or 5 s). */
    public static final long MAX_PROBE_INTERVAL_MS = 60_000;
    /** The probe interval of a PROBING flow that names none. */
    public static final long DEFAULT_PROBE_INTERVAL_MS = 1000;

    private final FlowFilter filter;
    private final String srcHost;
    private final String dstHost;
    private final long budgetUs;
    private final long m;
    private final Double factor;
    private final CongestionMode mode;
    private final boolean orderedSwitchover;
    private final long probeIntervalMs;

    private CcFlowRequest(Builder b) {
        this.filter = b.filter;
        this.srcHost = b.srcHost;
        this.dstHost = b.dstHost;
        this.budgetUs = b.budgetUs;
        this.m = b.m;
        this.factor = b.factor;
        this.mode = b.mode;
        this.orderedSwitchover = b.orderedSwitchover;
        this.probeIntervalMs = b.probeIntervalMs == null ? DEFAULT_PROBE_INTERVAL_MS
                : b.probeIntervalMs;
    }

    /**
     * The flow's packets (IPv4 5-tuple; its in-port, if any, is ignored).
     *
     * @return filter
     */
    public FlowFilter filter() {
        return filter;
    }

    /**
     * The source host (name or MAC).
     *
     * @return host
     */
    public String srcHost() {
        return srcHost;
    }

    /**
     * The destination host (name or MAC).
     *
     * @return host
     */
    public String dstHost() {
        return dstHost;
    }

    /**
     * End-to-end delay budget.
     *
     * @return microseconds
     */
    public long budgetUs() {
        return budgetUs;
    }

    /**
     * Consecutive packets over a threshold that mean congestion.
     *
     * @return m
     */
    public long m() {
        return m;
    }

    /**
     * The threshold factor X (thresholds are X times the idle delays),
     * when the request sets one.
     *
     * @return X, empty for the service's default
     */
    public Optional<Double> factor() {
        return Optional.ofNullable(factor);
    }

    /**
     * How the flow reacts to congestion.
     *
     * @return mode
     */
    public CongestionMode mode() {
        return mode;
    }

    /**
     * Whether a switch-over must reorder nothing (a merge buffer holds the
     * backup's packets until the old path drains). Stored; not yet acted on.
     *
     * @return true when asked for
     */
    public boolean orderedSwitchover() {
        return orderedSwitchover;
    }

    /**
     * How often the controller probes a PROBING flow's path.
     *
     * @return milliseconds (meaningful in PROBING mode only)
     */
    public long probeIntervalMs() {
        return probeIntervalMs;
    }

    /**
     * A new builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a request and checks its ranges. */
    public static final class Builder {
        private FlowFilter filter;
        private String srcHost;
        private String dstHost;
        private long budgetUs;
        private long m = 1;
        private Double factor;
        private CongestionMode mode = CongestionMode.DATAPLANE;
        private boolean orderedSwitchover;
        private Long probeIntervalMs;

        private Builder() {
        }

        /**
         * The packets.
         *
         * @param f filter
         * @return this
         */
        public Builder filter(FlowFilter f) {
            this.filter = f;
            return this;
        }

        /**
         * The hosts.
         *
         * @param src source host
         * @param dst destination host
         * @return this
         */
        public Builder hosts(String src, String dst) {
            this.srcHost = src;
            this.dstHost = dst;
            return this;
        }

        /**
         * The delay budget.
         *
         * @param us microseconds
         * @return this
         */
        public Builder budgetUs(long us) {
            this.budgetUs = us;
            return this;
        }

        /**
         * m.
         *
         * @param packets consecutive packets
         * @return this
         */
        public Builder m(long packets) {
            this.m = packets;
            return this;
        }

        /**
         * X.
         *
         * @param x factor, null for the default
         * @return this
         */
        public Builder factor(Double x) {
            this.factor = x;
            return this;
        }

        /**
         * The mode.
         *
         * @param mo mode
         * @return this
         */
        public Builder mode(CongestionMode mo) {
            this.mode = Objects.requireNonNull(mo);
            return this;
        }

        /**
         * The ordered switch-over option.
         *
         * @param ordered true to ask for it
         * @return this
         */
        public Builder orderedSwitchover(boolean ordered) {
            this.orderedSwitchover = ordered;
            return this;
        }

        /**
         * The probe interval (PROBING mode only).
         *
         * @param ms milliseconds, null for the default
         * @return this
         */
        public Builder probeIntervalMs(Long ms) {
            this.probeIntervalMs = ms;
            return this;
        }

        /**
         * Builds the request.
         *
         * @return request
         * @throws FlowBufException INVALID when a field is missing or out of range
         */
        public CcFlowRequest build() {
            if (filter == null || filter.ipv4Dst().isEmpty() && filter.ipv4Src().isEmpty()) {
                throw FlowBufException.invalid("a latency-critical flow needs an IPv4 "
                                                       + "source or destination");
            }
            if (srcHost == null || srcHost.isBlank() || dstHost == null || dstHost.isBlank()) {
                throw FlowBufException.invalid("\"srcHost\" and \"dstHost\" are required");
            }
            if (srcHost.equals(dstHost)) {
                throw FlowBufException.invalid("source and destination are the same host");
            }
            if (budgetUs < 1 || budgetUs > CcThresholds.MAX) {
                throw FlowBufException.invalid("\"budgetUs\" must be 1..%d (bit<32> µs)",
                                               CcThresholds.MAX);
            }
            if (m < 1 || m > CcThresholds.MAX) {
                throw FlowBufException.invalid("\"m\" must be 1..%d (bit<32>)", CcThresholds.MAX);
            }
            if (factor != null && !(factor >= MIN_FACTOR && factor <= MAX_FACTOR)) {
                throw FlowBufException.invalid("\"x\" must be %s..%s", MIN_FACTOR, MAX_FACTOR);
            }
            if (probeIntervalMs != null && mode != CongestionMode.PROBING) {
                throw FlowBufException.invalid("\"probeIntervalMs\" is for mode PROBING only");
            }
            if (probeIntervalMs != null && (probeIntervalMs < MIN_PROBE_INTERVAL_MS
                    || probeIntervalMs > MAX_PROBE_INTERVAL_MS)) {
                throw FlowBufException.invalid("\"probeIntervalMs\" must be %d..%d",
                                               MIN_PROBE_INTERVAL_MS, MAX_PROBE_INTERVAL_MS);
            }
            return new CcFlowRequest(this);
        }
    }
}
