/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;

import java.util.Objects;

/**
 * The switches' heavy-hitter detector (pipeconf include/hh.p4): a UE whose
 * downlink keeps a rate above {@code rateBps}, in packets of
 * {@code packetBytes}, is reported once, until it sends nothing for
 * {@code idleMs}. What the switch compares is the EWMA of the UE's
 * inter-packet gaps, in 1/8 µs, with {@link #thresholdEighthsUs()}:
 * <pre>
 *   threshold = floor(8 * packetBytes * 8 * 10^6 / rateBps)
 * </pre>
 * the mean gap, in 1/8 µs, of packetBytes packets at rateBps.
 *
 * <p>With {@code minObserveMs} above 0, a UE is also observed that long
 * before it may be reported, and it must have sent at least
 * {@link #minWindowBytes()} IPv4 bytes in that window (its mean rate over
 * the window above {@code rateBps} too): the EWMA alone takes a light TCP
 * flow's first flight, segments back to back, for a heavy hitter. 0 (the
 * default) reports on the EWMA alone.
 */
public final class HeavyHitterSettings {

    /** Lowest rate threshold, bit/s. */
    public static final long MIN_RATE_BPS = 1_000;
    /** Highest rate threshold, bit/s. */
    public static final long MAX_RATE_BPS = 100_000_000_000L;
    /** Smallest packet size, bytes (an Ethernet frame's minimum). */
    public static final int MIN_PACKET_BYTES = 64;
    /** Largest packet size, bytes (a jumbo frame). */
    public static final int MAX_PACKET_BYTES = 9216;
    /** Shortest idle time, ms. */
    public static final long MIN_IDLE_MS = 1;
    /** Longest idle time, ms (one hour: idle_us stays within the P4 parameter's 32 bits). */
    public static final long MAX_IDLE_MS = 3_600_000;
    /** What the paper's evaluation uses (Fig. 7: HH threshold 2 Mbit/s). */
    public static final long DEFAULT_RATE_BPS = 2_000_000;
    /** A full Ethernet payload. */
    public static final int DEFAULT_PACKET_BYTES = 1500;
    /** One second without a packet ends a UE's state. */
    public static final long DEFAULT_IDLE_MS = 1000;
    /** Longest minimum observation, ms (one minute). */
    public static final long MAX_MIN_OBSERVE_MS = 60_000;
    /** The switch's EWMA and threshold are kept in 2^-3 µs (HH_EWMA_SHIFT). */
    public static final int EWMA_SHIFT = 3;

    private final boolean enabled;
    private final long rateBps;
    private final int packetBytes;
    private final long idleMs;
    private final long minObserveMs;

    private HeavyHitterSettings(boolean enabled, long rateBps, int packetBytes, long idleMs,
                                long minObserveMs) {
        this.enabled = enabled;
        this.rateBps = rateBps;
        this.packetBytes = packetBytes;
        this.idleMs = idleMs;
        this.minObserveMs = minObserveMs;
    }

    /**
     * The defaults: off, 2 Mbit/s of 1500-byte packets, 1 s idle, no
     * minimum observation.
     *
     * @return settings
     */
    public static HeavyHitterSettings defaults() {
        return new HeavyHitterSettings(false, DEFAULT_RATE_BPS, DEFAULT_PACKET_BYTES,
                                       DEFAULT_IDLE_MS, 0);
    }

    /**
     * Checked settings.
     *
     * @param enabled     whether the switches detect
     * @param rateBps     rate above which a UE is heavy, bit/s
     * @param packetBytes the packet size the rate is counted in, bytes
     * @param idleMs      a UE silent this long starts afresh, ms
     * @return the settings
     * @throws FlowBufException INVALID when a value is out of range, or when
     *                          the switch could not tell the threshold: a
     *                          mean gap under 1/8 µs, or not under the idle time
     */
    public static HeavyHitterSettings of(boolean enabled, long rateBps, long packetBytes,
                                         long idleMs) {
        return of(enabled, rateBps, packetBytes, idleMs, 0);
    }

    /**
     * Checked settings with a minimum observation.
     *
     * @param enabled      whether the switches detect
     * @param rateBps      rate above which a UE is heavy, bit/s
     * @param packetBytes  the packet size the rate is counted in, bytes
     * @param idleMs       a UE silent this long starts afresh, ms
     * @param minObserveMs a UE is observed this long, and must send rateBps
     *                     on average in that time, before it is reported, ms
     *                     (0: reported on the EWMA alone)
     * @return the settings
     * @throws FlowBufException INVALID when a value is out of range, or when
     *                          the switch could not tell the threshold
     */
    public static HeavyHitterSettings of(boolean enabled, long rateBps, long packetBytes,
                                         long idleMs, long minObserveMs) {
        check("rateBps", rateBps, MIN_RATE_BPS, MAX_RATE_BPS, "bit/s");
        check("packetBytes", packetBytes, MIN_PACKET_BYTES, MAX_PACKET_BYTES, "bytes");
        check("idleMs", idleMs, MIN_IDLE_MS, MAX_IDLE_MS, "ms");
        check("minObserveMs", minObserveMs, 0, MAX_MIN_OBSERVE_MS, "ms");
        HeavyHitterSettings s = new HeavyHitterSettings(enabled, rateBps, (int) packetBytes, idleMs,
                                                        minObserveMs);
        if (s.thresholdEighthsUs() < 1) {
            throw FlowBufException.invalid(
                    "rateBps %d with packetBytes %d is a packet every %.3f µs: under the "
                            + "switch's 1/8 µs resolution", rateBps, packetBytes,
                    s.meanGapUs());
        }
        if (s.thresholdEighthsUs() >= s.idleUs() << EWMA_SHIFT) {
            throw FlowBufException.invalid(
                    "rateBps %d with packetBytes %d is a packet every %.0f µs, not under "
                            + "idleMs %d: every UE that is not idle would be heavy",
                    rateBps, packetBytes, s.meanGapUs(), idleMs);
        }
        return s;
    }

    private static void check(String field, long value, long min, long max, String unit) {
        if (value < min || value > max) {
            throw FlowBufException.invalid("\"%s\" must be %d..%d %s, got %d", field, min, max,
                                           unit, value);
        }
    }

    /**
     * Whether the switches detect heavy hitters.
     *
     * @return true when on
     */
    public boolean enabled() {
        return enabled;
    }

    /**
     * The rate above which a UE is heavy.
     *
     * @return bit/s
     */
    public long rateBps() {
        return rateBps;
    }

    /**
     * The packet size the rate is counted in.
     *
     * @return bytes
     */
    public int packetBytes() {
        return packetBytes;
    }

    /**
     * How long a UE must be silent to start afresh (and be reported again).
     *
     * @return milliseconds
     */
    public long idleMs() {
        return idleMs;
    }

    /**
     * The idle time as the switch takes it (hh_settings' idle_us).
     *
     * @return microseconds
     */
    public long idleUs() {
        return idleMs * 1000;
    }

    /**
     * How long a UE is observed before it may be reported (0: not at all).
     *
     * @return milliseconds
     */
    public long minObserveMs() {
        return minObserveMs;
    }

    /**
     * The minimum observation as the switch takes it (hh_observation's min_us).
     *
     * @return microseconds
     */
    public long minObserveUs() {
        return minObserveMs * 1000;
    }

    /**
     * What a UE must send in its observation window to be reported
     * (hh_observation's min_bytes): floor(rateBps * minObserveMs / 8000),
     * its rate over the window at least rateBps. At most 7.5 * 10^11
     * (100 Gbit/s for a minute): within the P4 parameter's 48 bits.
     *
     * @return IPv4 bytes
     */
    public long minWindowBytes() {
        return rateBps * minObserveMs / 8000;
    }

    /**
     * The mean gap of packetBytes packets at rateBps.
     *
     * @return microseconds
     */
    public double meanGapUs() {
        return packetBytes * 8.0 * 1e6 / rateBps;
    }

    /**
     * The threshold as the switch takes it (hh_settings' threshold):
     * floor(8 * packetBytes * 8 * 10^6 / rateBps).
     *
     * @return the mean gap in 1/8 µs
     */
    public long thresholdEighthsUs() {
        return ((long) packetBytes * 8 * 1_000_000 << EWMA_SHIFT) / rateBps;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HeavyHitterSettings)) {
            return false;
        }
        HeavyHitterSettings s = (HeavyHitterSettings) o;
        return enabled == s.enabled && rateBps == s.rateBps && packetBytes == s.packetBytes
                && idleMs == s.idleMs && minObserveMs == s.minObserveMs;
    }

    @Override
    public int hashCode() {
        return Objects.hash(enabled, rateBps, packetBytes, idleMs, minObserveMs);
    }

    @Override
    public String toString() {
        return (enabled ? "on" : "off") + ": over " + rateBps + " bit/s of " + packetBytes
                + "-byte packets, idle after " + idleMs + " ms"
                + (minObserveMs > 0 ? ", observed " + minObserveMs + " ms first" : "");
    }
}
