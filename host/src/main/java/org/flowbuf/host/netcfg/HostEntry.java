/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;

import java.util.List;
import java.util.Objects;

/**
 * A host of the netcfg: its MAC and where it is attached.
 */
public final class HostEntry {

    private final MacAddress mac;
    private final ConnectPoint location;
    private final String name;
    private final List<String> ips;

    HostEntry(MacAddress mac, ConnectPoint location, String name, List<String> ips) {
        this.mac = Objects.requireNonNull(mac);
        this.location = Objects.requireNonNull(location);
        this.name = Objects.requireNonNull(name);
        this.ips = List.copyOf(ips);
    }

    /**
     * Display name (basic.name, or the MAC).
     *
     * @return name
     */
    public String name() {
        return name;
    }

    /**
     * IP addresses (basic.ips).
     *
     * @return addresses as text
     */
    public List<String> ips() {
        return ips;
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
