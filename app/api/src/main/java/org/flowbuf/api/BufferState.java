/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/**
 * The five states of a programmable buffer. A state is always derived from
 * the modes of the vports bound to the buffer and its occupancy, never stored.
 */
public enum BufferState {
    /** Empty and no vport carries packets in or out. */
    FREE,
    /** Packets enter, none leave: a paused flow is held. */
    BUFFERING,
    /** Held packets leave, none enter: the buffer is a traffic source. */
    SERVING,
    /** Packets pass through in order. */
    FORWARDING,
    /** Packets are held and no vport carries them in or out. */
    STORING;

    /**
     * Derives a buffer's state.
     *
     * @param rx                whether any bound vport has RX
     * @param tx                whether any bound vport has TX
     * @param occupancyPackets  packets held now
     * @return the state
     */
    public static BufferState derive(boolean rx, boolean tx, long occupancyPackets) {
        if (rx && tx) {
            return FORWARDING;
        }
        if (rx) {
            return BUFFERING;
        }
        if (tx) {
            return SERVING;
        }
        return occupancyPackets > 0 ? STORING : FREE;
    }

    /**
     * Whether a buffer in this state takes packets in.
     *
     * @return true for BUFFERING and FORWARDING
     */
    public boolean receives() {
        return this == BUFFERING || this == FORWARDING;
    }

    /**
     * Whether a buffer in this state sends packets out.
     *
     * @return true for SERVING and FORWARDING
     */
    public boolean transmits() {
        return this == SERVING || this == FORWARDING;
    }
}
