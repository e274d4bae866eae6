/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

/**
 * The delays a packet of a flow meets on a switch leaving by a port when
 * the network is idle: what congestion.p4 measures as queuing delay
 * (deq_timedelta) and as processing delay (ingress to egress, less the
 * queuing).
 */
public final class IdleDelay {

    private final long queueUs;
    private final long procUs;

    /**
     * Creates a delay.
     *
     * @param queueUs idle queuing delay, microseconds, at least 1
     * @param procUs  idle processing delay, microseconds, at least 1
     */
    public IdleDelay(long queueUs, long procUs) {
        if (queueUs < 1 || procUs < 1) {
            throw new IllegalArgumentException("idle delays are at least 1 µs (v1model's unit)");
        }
        this.queueUs = queueUs;
        this.procUs = procUs;
    }

    /**
     * Idle queuing delay.
     *
     * @return microseconds
     */
    public long queueUs() {
        return queueUs;
    }

    /**
     * Idle processing delay.
     *
     * @return microseconds
     */
    public long procUs() {
        return procUs;
    }

    /**
     * Both.
     *
     * @return microseconds
     */
    public long totalUs() {
        return queueUs + procUs;
    }

    /** Where a switch's idle delays come from (netcfg, measurements). */
    @FunctionalInterface
    public interface Source {
        /**
         * The idle delays of a switch towards a port.
         *
         * @param device switch
         * @param port   the port the flow leaves by
         * @return delays
         */
        IdleDelay of(DeviceId device, PortNumber port);
    }
}
