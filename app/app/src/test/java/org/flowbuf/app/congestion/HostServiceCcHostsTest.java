/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.junit.Test;
import org.onlab.packet.IpAddress;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.PortNumber;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.provider.ProviderId;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;

/**
 * Hosts by MAC or by their netcfg name, from ONOS's host service.
 */
public class HostServiceCcHostsTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");

    private static Host host(MacAddress mac, String name, int device, long seen) {
        DefaultAnnotations.Builder a = DefaultAnnotations.builder();
        if (name != null) {
            a.set(AnnotationKeys.NAME, name);
        }
        return new DefaultHost(new ProviderId("test", "test"), HostId.hostId(mac, VlanId.NONE),
                               mac, VlanId.NONE,
                               new HostLocation(sw(device), PortNumber.portNumber(1), seen),
                               Set.of(IpAddress.valueOf("10.0.0." + device)), a.build());
    }

    private final List<Host> known = List.of(host(H1, "h1", 1, 5), host(H2, null, 2, 5),
                                             host(H2, null, 3, 9));
    private final CcHosts hosts = new HostServiceCcHosts(new HostServiceAdapter() {
        @Override
        public Iterable<Host> getHosts() {
            return known;
        }

        @Override
        public Set<Host> getHostsByMac(MacAddress mac) {
            return known.stream().filter(h -> h.mac().equals(mac)).collect(Collectors.toSet());
        }
    });

    @Test
    public void aHostIsFoundByNameOrByMac() {
        ConnectPoint at = new ConnectPoint(sw(1), PortNumber.portNumber(1));
        assertEquals(at, hosts.find("h1").orElseThrow().location());
        assertEquals(H1, hosts.find("00:00:00:00:00:01").orElseThrow().mac());
    }

    @Test
    public void aHostSeenAtTwoPlacesIsWhereItWasSeenLast() {
        assertEquals(sw(3), hosts.find("00:00:00:00:00:02").orElseThrow().location().deviceId());
    }

    @Test
    public void anUnknownHostIsNotFound() {
        assertEquals(Optional.empty(), hosts.find("h9"));
        assertEquals(Optional.empty(), hosts.find("00:00:00:00:00:09"));
    }
}
