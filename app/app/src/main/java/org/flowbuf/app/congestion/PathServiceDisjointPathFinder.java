/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.CcPath;
import org.onlab.graph.ScalarWeight;
import org.onlab.graph.Weight;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.DisjointPath;
import org.onosproject.net.Link;
import org.onosproject.net.Path;
import org.onosproject.net.topology.LinkWeigher;
import org.onosproject.net.topology.PathService;
import org.onosproject.net.topology.TopologyEdge;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Routes from ONOS's PathService (its topology, its Suurballe). ONOS's
 * disjoint pairs are link-disjoint; a pair that shares a switch is left
 * out (see {@link DisjointPathFinder}).
 */
public final class PathServiceDisjointPathFinder implements DisjointPathFinder {

    private final PathService paths;

    /**
     * Creates a finder.
     *
     * @param paths ONOS's path service
     */
    public PathServiceDisjointPathFinder(PathService paths) {
        this.paths = Objects.requireNonNull(paths);
    }

    @Override
    public Optional<List<Link>> shortest(DeviceId src, DeviceId dst) {
        return paths.getPaths(src, dst).stream().map(Path::links)
                .min(SuurballePathFinder.SHORTER_FIRST);
    }

    @Override
    public Optional<List<List<Link>>> disjointPair(DeviceId src, DeviceId dst) {
        return paths.getDisjointPaths(src, dst).stream()
                .filter(p -> p.backup() != null)
                .map(PathServiceDisjointPathFinder::ordered)
                .filter(pair -> SuurballePathFinder.disjoint(pair.get(0), pair.get(1)))
                .min((a, b) -> Integer.compare(a.get(0).size() + a.get(1).size(),
                                               b.get(0).size() + b.get(1).size()));
    }

    @Override
    public Optional<List<Link>> disjointFrom(DeviceId src, DeviceId dst, CcPath path) {
        return paths.getPaths(src, dst, avoiding(path, dst)).stream().map(Path::links)
                .min(SuurballePathFinder.SHORTER_FIRST);
    }

    /**
     * A weigher by hop count that makes a path's links (by their ports)
     * and its switches but the ends non-viable.
     *
     * @param path the path to avoid
     * @param dst  its destination switch (shared by any route)
     * @return the weigher
     */
    static LinkWeigher avoiding(CcPath path, DeviceId dst) {
        Set<ConnectPoint> ports = path.hops().stream()
                .map(h -> new ConnectPoint(h.device(), h.outPort())).collect(Collectors.toSet());
        Set<DeviceId> interior = new HashSet<>(path.restDevices());
        interior.remove(dst);
        return new LinkWeigher() {
            @Override
            public Weight weight(TopologyEdge edge) {
                Link l = edge.link();
                boolean avoided = ports.contains(l.src()) || ports.contains(l.dst())
                        || interior.contains(l.src().deviceId())
                        || interior.contains(l.dst().deviceId());
                return avoided ? ScalarWeight.NON_VIABLE_WEIGHT : ScalarWeight.toWeight(1);
            }

            @Override
            public Weight getInitialWeight() {
                return ScalarWeight.toWeight(0);
            }

            @Override
            public Weight getNonViableWeight() {
                return ScalarWeight.NON_VIABLE_WEIGHT;
            }
        };
    }

    private static List<List<Link>> ordered(DisjointPath p) {
        return List.of(p.primary().links(), p.backup().links()).stream()
                .sorted(SuurballePathFinder.SHORTER_FIRST).collect(Collectors.toList());
    }
}
