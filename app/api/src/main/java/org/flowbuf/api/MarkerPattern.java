/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;

import java.util.Arrays;

/**
 * Bytes a marker packet carries at a fixed frame offset: a frame matches
 * when {@code (frame[offset + i] & mask[i]) == value[i]} for every i. The
 * LMM end marker is found this way by the buffer that holds it.
 */
public final class MarkerPattern {

    /** The agent reads at most this far into a frame. */
    public static final int MAX_END = 256;

    private final int offset;
    private final byte[] value;
    private final byte[] mask;

    /**
     * Creates a pattern.
     *
     * @param offset frame offset of the first byte
     * @param value  expected bytes (after masking)
     * @param mask   mask of the same length as value
     * @throws FlowBufException INVALID when the lengths differ, the pattern
     *                          is empty or reaches past {@link #MAX_END}
     */
    public MarkerPattern(int offset, byte[] value, byte[] mask) {
        if (value.length == 0 || value.length != mask.length) {
            throw FlowBufException.invalid("marker value and mask must be non-empty and of "
                                                   + "equal length (%d, %d)", value.length,
                                           mask.length);
        }
        if (offset < 0 || offset + value.length > MAX_END) {
            throw FlowBufException.invalid("marker bytes %d..%d lie outside the first %d bytes",
                                           offset, offset + value.length, MAX_END);
        }
        this.offset = offset;
        this.value = value.clone();
        this.mask = mask.clone();
    }

    /**
     * Frame offset of the first byte.
     *
     * @return offset
     */
    public int offset() {
        return offset;
    }

    /**
     * Expected bytes.
     *
     * @return a copy
     */
    public byte[] value() {
        return value.clone();
    }

    /**
     * Mask.
     *
     * @return a copy
     */
    public byte[] mask() {
        return mask.clone();
    }

    /**
     * Whether a frame carries the marker.
     *
     * @param frame Ethernet frame
     * @return true on a match
     */
    public boolean matches(byte[] frame) {
        if (frame.length < offset + value.length) {
            return false;
        }
        for (int i = 0; i < value.length; i++) {
            if ((frame[offset + i] & mask[i]) != value[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MarkerPattern)) {
            return false;
        }
        MarkerPattern that = (MarkerPattern) o;
        return offset == that.offset && Arrays.equals(value, that.value)
                && Arrays.equals(mask, that.mask);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * offset + Arrays.hashCode(value)) + Arrays.hashCode(mask);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("offset", offset)
                .add("value", Arrays.toString(value)).add("mask", Arrays.toString(mask))
                .toString();
    }
}
