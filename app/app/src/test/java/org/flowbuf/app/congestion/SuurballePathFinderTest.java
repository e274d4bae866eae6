/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.junit.Test;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class SuurballePathFinderTest {

    private static List<DeviceId> switches(List<Link> route) {
        List<DeviceId> devices = route.stream().map(l -> l.src().deviceId())
                .collect(Collectors.toList());
        devices.add(route.get(route.size() - 1).dst().deviceId());
        return devices;
    }

    @Test
    public void thePapersTopologyGivesItsTwoPaths() {
        Topo topo = Topo.paper();
        List<List<Link>> pair = new SuurballePathFinder(() -> topo.links)
                .disjointPair(sw(1), sw(7)).orElseThrow();
        List<List<DeviceId>> routes = pair.stream().map(SuurballePathFinderTest::switches)
                .collect(Collectors.toList());
        assertTrue(routes.toString(), routes.contains(List.of(sw(1), sw(3), sw(5), sw(7))));
        assertTrue(routes.toString(), routes.contains(List.of(sw(1), sw(4), sw(6), sw(7))));
        assertTrue(SuurballePathFinder.disjoint(pair.get(0), pair.get(1)));
    }

    @Test
    public void theShorterRouteComesFirst() {
        Topo topo = new Topo().cable(1, 2).cable(2, 3).cable(3, 9).cable(1, 9);
        List<List<Link>> pair = new SuurballePathFinder(() -> topo.links)
                .disjointPair(sw(1), sw(9)).orElseThrow();
        assertEquals(List.of(sw(1), sw(9)), switches(pair.get(0)));
        assertEquals(List.of(sw(1), sw(2), sw(3), sw(9)), switches(pair.get(1)));
    }

    @Test
    public void aLineHasNoPair() {
        Topo topo = new Topo().cable(1, 2).cable(2, 3);
        SuurballePathFinder finder = new SuurballePathFinder(() -> topo.links);
        assertEquals(Optional.empty(), finder.disjointPair(sw(1), sw(3)));
        assertEquals(List.of(sw(1), sw(2), sw(3)), switches(finder.shortest(sw(1), sw(3))
                                                                    .orElseThrow()));
    }

    @Test
    public void linkDisjointRoutesThroughOneSwitchAreNoPair() {
        // s1 -> {s2, s3} -> s4 -> {s5, s6} -> s8: two link-disjoint routes, both through s4,
        // which congestion.p4 could not forward for both (next hops by flow and slot only).
        Topo topo = new Topo().cable(1, 2).cable(1, 3).cable(2, 4).cable(3, 4).cable(4, 5)
                .cable(4, 6).cable(5, 8).cable(6, 8);
        assertEquals(Optional.empty(),
                     new SuurballePathFinder(() -> topo.links).disjointPair(sw(1), sw(8)));
    }

    @Test
    public void unknownSwitchesHaveNoRoute() {
        Topo topo = Topo.paper();
        SuurballePathFinder finder = new SuurballePathFinder(() -> topo.links);
        assertFalse(finder.disjointPair(sw(1), sw(42)).isPresent());
        assertFalse(finder.shortest(sw(42), sw(7)).isPresent());
    }

    @Test
    public void aRouteDisjointFromAPathAvoidsItsSwitchesAndCables() {
        Topo topo = Topo.paper().cable(1, 2).cable(2, 8).cable(8, 7);
        SuurballePathFinder finder = new SuurballePathFinder(() -> topo.links);
        CcPath lower = path(topo, 1, 4, 6, 7);
        List<Link> route = finder.disjointFrom(sw(1), sw(7), lower).orElseThrow();
        assertEquals(List.of(sw(1), sw(3), sw(5), sw(7)), switches(route));
        topo.cut(3, 5);
        assertEquals(List.of(sw(1), sw(2), sw(8), sw(7)),
                     switches(finder.disjointFrom(sw(1), sw(7), lower).orElseThrow()));
        topo.cut(2, 8);
        assertEquals(Optional.empty(), finder.disjointFrom(sw(1), sw(7), lower));
    }

    /** The path along switches, by the topology's cables, ending at host port 1. */
    static CcPath path(Topo topo, int... switches) {
        List<CcHop> hops = new java.util.ArrayList<>();
        for (int i = 0; i + 1 < switches.length; i++) {
            int from = switches[i];
            int to = switches[i + 1];
            ConnectPoint out = topo.links.stream()
                    .filter(l -> l.src().deviceId().equals(sw(from))
                            && l.dst().deviceId().equals(sw(to)))
                    .findFirst().orElseThrow().src();
            hops.add(new CcHop(out.deviceId(), out.port()));
        }
        hops.add(new CcHop(sw(switches[switches.length - 1]), PortNumber.portNumber(1)));
        return new CcPath(hops);
    }
}
