/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.onosproject.net.DeviceId;

import java.time.Instant;
import java.util.Objects;

/**
 * A switch-over: a switch reported (its cc_digest_t) that it moved the flow
 * to its backup because of the delays it measured, or, for a PROBING flow,
 * the controller moved it because a probe was late or missing.
 */
public final class SwitchOver {

    /** Why the flow moved. */
    public enum Cause {
        /** A switch's digest: the data plane moved it. */
        DIGEST,
        /** A probe came back over the flow's budget (its delay is the queuing delay here). */
        PROBE_LATE,
        /** A probe did not come back within the probe interval. */
        PROBE_MISSING
    }

    private final DeviceId device;
    private final long queueUs;
    private final long procUs;
    private final Instant time;
    private final boolean newBackup;
    private final Cause cause;

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
        this(device, queueUs, procUs, time, newBackup, Cause.DIGEST);
    }

    /**
     * Creates a record with its cause.
     *
     * @param device    the switch that moved the flow (the source switch for a probe)
     * @param queueUs   the queuing delay that made it move (a late probe's one-way time), us
     * @param procUs    the processing delay, microseconds
     * @param time      when the controller learned of it
     * @param newBackup whether a new backup path was installed after it
     * @param cause     why it moved
     */
    public SwitchOver(DeviceId device, long queueUs, long procUs, Instant time,
                      boolean newBackup, Cause cause) {
        this.device = Objects.requireNonNull(device);
        this.queueUs = queueUs;
        this.procUs = procUs;
        this.time = Objects.requireNonNull(time);
        this.newBackup = newBackup;
        this.cause = Objects.requireNonNull(cause);
    }

    /**
     * Why the flow moved.
     *
     * @return cause
     */
    public Cause cause() {
        return cause;
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
        return "switch-over at " + device + " by " + cause + " (queue " + queueUs
                + " us, processing " + procUs + " us) at " + time + (newBackup ? ", new backup" : ", no new backup");
    }
}
