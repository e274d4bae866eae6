/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the hosts a latency-critical flow runs between are attached
 * (the netcfg's hosts in the embedded host, ONOS's HostService in ONOS).
 */
@FunctionalInterface
public interface CcHosts {

    /**
     * A host by name or MAC.
     *
     * @param nameOrMac the host's name or MAC address
     * @return the host, empty when unknown
     */
    Optional<Endpoint> find(String nameOrMac);

    /** A host's MAC and the switch port it is attached to. */
    final class Endpoint {
        private final MacAddress mac;
        private final ConnectPoint location;

        /**
         * Creates an endpoint.
         *
         * @param mac      the host's MAC
         * @param location its switch port
         */
        public Endpoint(MacAddress mac, ConnectPoint location) {
            this.mac = Objects.requireNonNull(mac);
            this.location = Objects.requireNonNull(location);
        }

        /**
         * The host's MAC.
         *
         * @return mac
         */
        public MacAddress mac() {
            return mac;
        }

        /**
         * Its switch port.
         *
         * @return connect point
         */
        public ConnectPoint location() {
            return location;
        }
    }
}
