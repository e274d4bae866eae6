/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.onosproject.net.DeviceId;

import java.time.Instant;
import java.util.Objects;

/**
 * A switch-over a switch reported (its cc_digest_t): the flow moved to its
 * backup there because of the delays it measured.
 */
public final class SwitchOver {

    private final DeviceId device;
    private final long queueUs;
    private final long procUs;
    private final Instant time;
    private final boolean newBackup;

    /**
     * Creates a record.
     *
     * @param device    the switch that moved the flow
     * @param queueUs   the queuing delay that made it move, microseconds
     * @param procUs    the processing delay, microseconds
     * @param time      when the controller learned of it
     * @param newBackup whether a new backup path was installed after it
     */
    public SwitchOver(DeviceId device, long queueUs, long procUs, Instant time,
                      boolean newBackup) {
        this.device = Objects.requireNonNull(device);
        this.queueUs = queueUs;
        this.procUs = procUs;
        this.time = Objects.requireNonNull(time);
        this.newBackup = newBackup;
    }

    /**
     * The switch that moved the flow.
     *
     * @return device id
     */
    public DeviceId device() {
        return device;
    }

    /**
     * The queuing delay that made it move.
     *
     * @return microseconds
     */
    public long queueUs() {
        return queueUs;
    }

    /**
     * The processing delay that came with it.
     *
     * @return microseconds
     */
    public long procUs() {
        return procUs;
    }

    /**
     * When the controller learned of it.
     *
     * @return time
     */
    public Instant time() {
        return time;
    }

    /**
     * Whether a new backup path was installed after it.
     *
     * @return true when the flow has a backup again
     */
    public boolean newBackup() {
        return newBackup;
    }

    @Override
    public String toString() {
        return "switch-over at " + device + " (queue " + queueUs + " us, processing " + procUs
                + " us) at " + time + (newBackup ? ", new backup" : ", no new backup");
    }
}
