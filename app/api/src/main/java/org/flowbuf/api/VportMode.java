/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/** Direction(s) a vport carries: RX is pipeline to buffer, TX buffer to pipeline. */
public enum VportMode {
    /** Idle: nothing enters or leaves the buffer through this vport. */
    NONE(false, false),
    /** Pipeline to buffer. */
    RX(true, false),
    /** Buffer to pipeline. */
    TX(false, true),
    /** Both directions. */
    RX_TX(true, true);

    private final boolean rx;
    private final boolean tx;

    VportMode(boolean rx, boolean tx) {
        this.rx = rx;
        this.tx = tx;
    }

    /**
     * Whether packets enter the buffer through this vport.
     *
     * @return true for RX and RX_TX
     */
    public boolean hasRx() {
        return rx;
    }

    /**
     * Whether packets leave the buffer through this vport.
     *
     * @return true for TX and RX_TX
     */
    public boolean hasTx() {
        return tx;
    }
}
