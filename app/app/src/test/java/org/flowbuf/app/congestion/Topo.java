/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A test topology: switches "s1".."sN" joined by cables (both directions),
 * each cable on the next free port of each end (ports 1.. are left for
 * hosts: cables start at port 10).
 */
final class Topo {

    private static final ProviderId PROVIDER = new ProviderId("test", "org.flowbuf.test");

    final List<Link> links = new ArrayList<>();
    private final Map<DeviceId, Integer> nextPort = new HashMap<>();

    static DeviceId sw(int n) {
        return DeviceId.deviceId("device:s" + n);
    }

    Topo cable(int a, int b) {
        ConnectPoint x = new ConnectPoint(sw(a), PortNumber.portNumber(port(sw(a))));
        ConnectPoint y = new ConnectPoint(sw(b), PortNumber.portNumber(port(sw(b))));
        links.add(link(x, y));
        links.add(link(y, x));
        return this;
    }

    /** Removes the cable between two switches (both directions). */
    void cut(int a, int b) {
        links.removeIf(l -> l.src().deviceId().equals(sw(a)) && l.dst().deviceId().equals(sw(b))
                || l.src().deviceId().equals(sw(b)) && l.dst().deviceId().equals(sw(a)));
    }

    /** The paper's topology: s1-s3-s5-s7 and s1-s4-s6-s7. */
    static Topo paper() {
        return new Topo().cable(1, 3).cable(3, 5).cable(5, 7).cable(1, 4).cable(4, 6).cable(6, 7);
    }

    private int port(DeviceId d) {
        int p = nextPort.getOrDefault(d, 10);
        nextPort.put(d, p + 1);
        return p;
    }

    private static Link link(ConnectPoint src, ConnectPoint dst) {
        return DefaultLink.builder().providerId(PROVIDER).src(src).dst(dst)
                .type(Link.Type.DIRECT).state(Link.State.ACTIVE).build();
    }
}
