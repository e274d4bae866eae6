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
    private final List<ConnectPoint> locations;
    private final String name;
    private final List<String> ips;

    HostEntry(MacAddress mac, List<ConnectPoint> locations, String name, List<String> ips) {
        this.mac = Objects.requireNonNull(mac);
        this.locations = List.copyOf(locations);
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
        return locations.get(0);
    }

    /**
     * Every location (a multi-homed host, e.g. a UE in reach of two eNBs).
     *
     * @return locations, the first being location()
     */
    public List<ConnectPoint> locations() {
        return locations;
    }
}
