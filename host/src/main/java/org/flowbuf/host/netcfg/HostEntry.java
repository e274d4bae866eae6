/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;

import java.util.Objects;

/**
 * A host of the netcfg: its MAC and where it is attached.
 */
public final class HostEntry {

    private final MacAddress mac;
    private final ConnectPoint location;

    HostEntry(MacAddress mac, ConnectPoint location) {
        this.mac = Objects.requireNonNull(mac);
        this.location = Objects.requireNonNull(location);
    }

    /**
     * MAC address.
     *
     * @return mac
     */
    public MacAddress mac() {
        return mac;
    }

    /**
     * Switch port the host hangs off.
     *
     * @return connect point
     */
    public ConnectPoint location() {
        return location;
    }
}
