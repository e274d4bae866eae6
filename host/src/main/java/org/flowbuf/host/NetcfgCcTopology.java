/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.app.congestion.CcHosts;
import org.flowbuf.app.congestion.IdleDelay;
import org.flowbuf.host.netcfg.HostEntry;
import org.flowbuf.host.netcfg.LinkEntry;
import org.flowbuf.host.netcfg.Netcfg;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The congestion service's view of the netcfg: its hosts by name or MAC,
 * its links in both directions, and the idle delays of each switch port.
 */
final class NetcfgCcTopology implements CcHosts, IdleDelay.Source {

    private static final ProviderId NETCFG = new ProviderId("netcfg", FlowBufHost.APP_NAME);

    private final Netcfg netcfg;
    private final List<Link> links;

    NetcfgCcTopology(Netcfg netcfg) {
        this.netcfg = netcfg;
        List<Link> both = new ArrayList<>();
        for (LinkEntry l : netcfg.links()) {
            both.add(link(l.one(), l.other()));
            both.add(link(l.other(), l.one()));
        }
        this.links = List.copyOf(both);
    }

    /**
     * The netcfg's links, each in both directions.
     *
     * @return directed links
     */
    List<Link> links() {
        return links;
    }

    @Override
    public Optional<Endpoint> find(String nameOrMac) {
        for (HostEntry h : netcfg.hosts()) {
            if (h.name().equals(nameOrMac) || isMac(nameOrMac)
                    && h.mac().equals(MacAddress.valueOf(nameOrMac))) {
                return Optional.of(new Endpoint(h.mac(), h.location()));
            }
        }
        return Optional.empty();
    }

    @Override
    public IdleDelay of(DeviceId device, PortNumber port) {
        ConnectPoint at = new ConnectPoint(device, port);
        return netcfg.links().stream()
                .filter(l -> l.one().equals(at) || l.other().equals(at))
                .map(LinkEntry::idleDelay).flatMap(Optional::stream).findFirst()
                .orElse(netcfg.congestion().defaultIdle());
    }

    private static boolean isMac(String text) {
        return text.matches("([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}");
    }

    private static Link link(ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(NETCFG).src(src).dst(dst).type(Link.Type.DIRECT)
                .state(Link.State.ACTIVE).build();
    }
}
