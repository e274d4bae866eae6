/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;

import java.util.Objects;

/**
 * A two-rate three-colour meter (RFC 2698) in bytes: over the peak rate is
 * red and dropped, between the committed and the peak rate yellow and
 * passed. The pipeline's meter cells take 32-bit values (P4Runtime
 * MeterConfig on BMv2 and pbswitch), so every value is between 1 and
 * 2^32 - 1.
 */
public final class UpfMeter {

    /** The largest rate or burst a meter cell takes. */
    public static final long MAX_VALUE = 0xFFFF_FFFFL;

    private final long cir;
    private final long cburst;
    private final long pir;
    private final long pburst;

    private UpfMeter(long cir, long cburst, long pir, long pburst) {
        this.cir = cir;
        this.cburst = cburst;
        this.pir = pir;
        this.pburst = pburst;
    }

    /**
     * A meter.
     *
     * @param cir    committed rate, bytes/s
     * @param cburst committed burst, bytes
     * @param pir    peak rate, bytes/s (at least cir)
     * @param pburst peak burst, bytes
     * @return the meter
     * @throws FlowBufException INVALID when a value is out of range
     */
    public static UpfMeter of(long cir, long cburst, long pir, long pburst) {
        check("cir", cir);
        check("cburst", cburst);
        check("pir", pir);
        check("pburst", pburst);
        if (pir < cir) {
            throw FlowBufException.invalid("meter: pir (%d bytes/s) must be at least cir (%d "
                                                   + "bytes/s)", pir, cir);
        }
        return new UpfMeter(cir, cburst, pir, pburst);
    }

    private static void check(String field, long value) {
        if (value < 1 || value > MAX_VALUE) {
            throw FlowBufException.invalid("meter: %s must be between 1 and %d (2^32 - 1), got %d",
                                           field, MAX_VALUE, value);
        }
    }

    /**
     * Committed rate.
     *
     * @return bytes/s
     */
    public long cir() {
        return cir;
    }

    /**
     * Committed burst.
     *
     * @return bytes
     */
    public long cburst() {
        return cburst;
    }

    /**
     * Peak rate.
     *
     * @return bytes/s
     */
    public long pir() {
        return pir;
    }

    /**
     * Peak burst.
     *
     * @return bytes
     */
    public long pburst() {
        return pburst;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UpfMeter)) {
            return false;
        }
        UpfMeter m = (UpfMeter) o;
        return cir == m.cir && cburst == m.cburst && pir == m.pir && pburst == m.pburst;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cir, cburst, pir, pburst);
    }

    @Override
    public String toString() {
        return "meter(cir " + cir + " B/s burst " + cburst + ", pir " + pir + " B/s burst "
                + pburst + ")";
    }
}
