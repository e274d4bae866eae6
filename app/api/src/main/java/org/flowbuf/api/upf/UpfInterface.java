/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * A UPF interface of a device: an N3 address (the access side, where the
 * gNodeBs' GTP-U arrives) or a UE pool (the core side: downlink to these
 * addresses is the UPF's). Sessions must use the device's N3 addresses and
 * have their UE in one of its pools.
 */
public final class UpfInterface {

    /** Which side. */
    public enum Kind {
        /** An N3 address (a /32 prefix). */
        ACCESS,
        /** A UE pool. */
        CORE
    }

    private final DeviceId deviceId;
    private final Kind kind;
    private final Ip4Prefix prefix;

    /**
     * An interface.
     *
     * @param deviceId device
     * @param kind     access (N3) or core (UE pool)
     * @param prefix   the N3 address as a /32, or the pool
     */
    public UpfInterface(DeviceId deviceId, Kind kind, Ip4Prefix prefix) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.kind = Objects.requireNonNull(kind);
        this.prefix = Objects.requireNonNull(prefix);
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
     * Access or core.
     *
     * @return kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The prefix.
     *
     * @return prefix
     */
    public Ip4Prefix prefix() {
        return prefix;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UpfInterface)) {
            return false;
        }
        UpfInterface i = (UpfInterface) o;
        return deviceId.equals(i.deviceId) && kind == i.kind && prefix.equals(i.prefix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, kind, prefix);
    }

    @Override
    public String toString() {
        return kind + " " + prefix + " on " + deviceId;
    }
}
