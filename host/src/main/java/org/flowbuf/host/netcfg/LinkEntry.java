/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import org.flowbuf.app.congestion.IdleDelay;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.Objects;
import java.util.Optional;

/**
 * A link of the netcfg's "links" section ("device:a/2-device:b/1"), both
 * directions.
 */
public final class LinkEntry {

    private final ConnectPoint one;
    private final ConnectPoint other;
    private final IdleDelay idle;

    LinkEntry(ConnectPoint one, ConnectPoint other, IdleDelay idle) {
        this.one = Objects.requireNonNull(one);
        this.other = Objects.requireNonNull(other);
        this.idle = idle;
    }

    /**
     * The idle delays a packet meets leaving either end into this link
     * (the link's "congestion" section: idleQueueUs, idleProcUs).
     *
     * @return delays, empty when the netcfg gives none
     */
    public Optional<IdleDelay> idleDelay() {
        return Optional.ofNullable(idle);
    }

    /**
     * One end.
     *
     * @return connect point
     */
    public ConnectPoint one() {
        return one;
    }

    /**
     * The other end.
     *
     * @return connect point
     */
    public ConnectPoint other() {
        return other;
    }

    /**
     * This link's end on a device.
     *
     * @param deviceId device
     * @return the end, empty when the link does not touch the device
     */
    public Optional<ConnectPoint> endAt(DeviceId deviceId) {
        if (one.deviceId().equals(deviceId)) {
            return Optional.of(one);
        }
        return other.deviceId().equals(deviceId) ? Optional.of(other) : Optional.empty();
    }

    /**
     * The end across the link from an end.
     *
     * @param end one of this link's ends
     * @return the other one
     */
    public ConnectPoint opposite(ConnectPoint end) {
        return end.equals(one) ? other : one;
    }
}
