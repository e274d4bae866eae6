/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * What the UPF serves on one device, in counts (what the GUI shows per
 * device without fetching every session).
 */
public final class UpfDeviceSummary {

    private final DeviceId deviceId;
    private final int sessions;
    private final int pausedDownlinks;

    /**
     * A summary.
     *
     * @param deviceId        device
     * @param sessions        PDU sessions installed on it
     * @param pausedDownlinks of those, the ones whose downlink a buffer holds
     */
    public UpfDeviceSummary(DeviceId deviceId, int sessions, int pausedDownlinks) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.sessions = sessions;
        this.pausedDownlinks = pausedDownlinks;
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * PDU sessions installed on the device.
     *
     * @return count
     */
    public int sessions() {
        return sessions;
    }

    /**
     * Sessions whose downlink is paused (held in a FlowBuf buffer).
     *
     * @return count
     */
    public int pausedDownlinks() {
        return pausedDownlinks;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UpfDeviceSummary && deviceId.equals(((UpfDeviceSummary) o).deviceId)
                && sessions == ((UpfDeviceSummary) o).sessions
                && pausedDownlinks == ((UpfDeviceSummary) o).pausedDownlinks;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, sessions, pausedDownlinks);
    }

    @Override
    public String toString() {
        return deviceId + ": " + sessions + " sessions, " + pausedDownlinks + " downlinks paused";
    }
}
