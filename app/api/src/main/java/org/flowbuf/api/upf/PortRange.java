/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;

/**
 * An inclusive range of L4 ports; {@link #ANY} (0-65535) matches every
 * packet, also those without an L4 port.
 */
public final class PortRange {

    /** The largest L4 port. */
    public static final int MAX_PORT = 65535;
    /** Every port. */
    public static final PortRange ANY = new PortRange(0, MAX_PORT);

    private final int low;
    private final int high;

    private PortRange(int low, int high) {
        this.low = low;
        this.high = high;
    }

    /**
     * A range.
     *
     * @param field what the range is, for the message
     * @param low   first port
     * @param high  last port
     * @return the range
     * @throws FlowBufException INVALID when a port is out of 0-65535 or low is above high
     */
    public static PortRange of(String field, long low, long high) {
        if (low < 0 || high < 0 || low > MAX_PORT || high > MAX_PORT) {
            throw FlowBufException.invalid("%s: ports are between 0 and %d, got %d-%d", field,
                                           MAX_PORT, low, high);
        }
        if (low > high) {
            throw FlowBufException.invalid("%s: the range %d-%d is empty", field, low, high);
        }
        return low == 0 && high == MAX_PORT ? ANY : new PortRange((int) low, (int) high);
    }

    /**
     * First port.
     *
     * @return port
     */
    public int low() {
        return low;
    }

    /**
     * Last port.
     *
     * @return port
     */
    public int high() {
        return high;
    }

    /**
     * Whether the range is every port (a don't-care match).
     *
     * @return true for 0-65535
     */
    public boolean isAny() {
        return low == 0 && high == MAX_PORT;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortRange && ((PortRange) o).low == low && ((PortRange) o).high == high;
    }

    @Override
    public int hashCode() {
        return low * 65537 + high;
    }

    @Override
    public String toString() {
        return low == high ? Integer.toString(low) : low + "-" + high;
    }
}
