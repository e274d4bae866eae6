/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onlab.packet.MacAddress;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Host;
import org.onosproject.net.host.HostService;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.StreamSupport;

/**
 * Hosts as ONOS knows them: by MAC, or by the name the netcfg gives a host
 * (basic.name, the host's "name" annotation). A host seen at several
 * places is taken at the one ONOS saw last.
 */
public final class HostServiceCcHosts implements CcHosts {

    private static final String MAC = "([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}";

    private final HostService hosts;

    /**
     * Creates the lookup.
     *
     * @param hosts ONOS's host service
     */
    public HostServiceCcHosts(HostService hosts) {
        this.hosts = Objects.requireNonNull(hosts);
    }

    @Override
    public Optional<Endpoint> find(String nameOrMac) {
        if (nameOrMac.matches(MAC)) {
            return hosts.getHostsByMac(MacAddress.valueOf(nameOrMac)).stream()
                    .max(Comparator.comparingLong(h -> h.location().time()))
                    .map(HostServiceCcHosts::endpoint);
        }
        return StreamSupport.stream(hosts.getHosts().spliterator(), false)
                .filter(h -> nameOrMac.equals(h.annotations().value(AnnotationKeys.NAME)))
                .max(Comparator.comparingLong(h -> h.location().time()))
                .map(HostServiceCcHosts::endpoint);
    }

    private static Endpoint endpoint(Host host) {
        return new Endpoint(host.mac(), new ConnectPoint(host.location().deviceId(),
                                                         host.location().port()));
    }
}
