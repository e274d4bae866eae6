/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.CcPath;
import org.junit.Test;
import org.onlab.graph.ScalarWeight;
import org.onosproject.net.DefaultDisjointPath;
import org.onosproject.net.DefaultPath;
import org.onosproject.net.DeviceId;
import org.onosproject.net.DisjointPath;
import org.onosproject.net.Link;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.net.topology.DefaultTopologyEdge;
import org.onosproject.net.topology.DefaultTopologyVertex;
import org.onosproject.net.topology.LinkWeigher;
import org.onosproject.net.topology.PathService;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class PathServiceDisjointPathFinderTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");

    private static List<Link> route(Topo topo, int... switches) {
        List<Link> links = new ArrayList<>();
        for (int i = 0; i + 1 < switches.length; i++) {
            int a = switches[i];
            int b = switches[i + 1];
            links.add(topo.links.stream().filter(l -> l.src().deviceId().equals(sw(a))
                    && l.dst().deviceId().equals(sw(b))).findFirst().orElseThrow());
        }
        return links;
    }

    private static DefaultPath path(List<Link> links) {
        return new DefaultPath(PID, links, ScalarWeight.toWeight(links.size()));
    }

    private static PathService answering(Set<DisjointPath> pairs) {
        return (PathService) Proxy.newProxyInstance(
                PathService.class.getClassLoader(), new Class<?>[]{PathService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getDisjointPaths")) {
                        return pairs;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    public void aLinkDisjointPairThroughOneSwitchIsLeftOut() {
        // s1-s2-s4-s5-s8 and s1-s3-s4-s6-s8 share s4; s1-s3-s5-s7 and s1-s4-s6-s7 share none.
        Topo bowtie = new Topo().cable(1, 2).cable(1, 3).cable(2, 4).cable(3, 4).cable(4, 5)
                .cable(4, 6).cable(5, 8).cable(6, 8);
        DisjointPath shared = new DefaultDisjointPath(PID, path(route(bowtie, 1, 2, 4, 5, 8)),
                                                      path(route(bowtie, 1, 3, 4, 6, 8)));
        assertEquals(Optional.empty(), new PathServiceDisjointPathFinder(answering(Set.of(shared)))
                .disjointPair(sw(1), sw(8)));
        Topo paper = Topo.paper();
        DisjointPath good = new DefaultDisjointPath(PID, path(route(paper, 1, 4, 6, 7)),
                                                    path(route(paper, 1, 3, 5, 7)));
        List<List<Link>> pair = new PathServiceDisjointPathFinder(answering(Set.of(good)))
                .disjointPair(sw(1), sw(7)).orElseThrow();
        assertEquals(route(paper, 1, 3, 5, 7), pair.get(0));  // by ports, as in the host
    }

    @Test
    public void theWeigherMakesThePathsLinksAndSwitchesNonViable() {
        Topo topo = Topo.paper().cable(1, 2).cable(2, 7).cable(3, 4);
        CcPath upper = SuurballePathFinderTest.path(topo, 1, 3, 5, 7);
        LinkWeigher w = PathServiceDisjointPathFinder.avoiding(upper, sw(7));
        for (Link l : topo.links) {
            boolean viable = w.weight(new DefaultTopologyEdge(vertex(l.src().deviceId()),
                                                              vertex(l.dst().deviceId()), l))
                    .isViable();
            boolean touches = Set.of(sw(3), sw(5)).contains(l.src().deviceId())
                    || Set.of(sw(3), sw(5)).contains(l.dst().deviceId());
            assertEquals(l.toString(), !touches, viable);
        }
        assertFalse(w.getNonViableWeight().isViable());
        assertTrue(w.getInitialWeight().isViable());
    }

    private static DefaultTopologyVertex vertex(DeviceId d) {
        return new DefaultTopologyVertex(d);
    }
}
