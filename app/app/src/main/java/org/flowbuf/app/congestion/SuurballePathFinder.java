/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onlab.graph.DijkstraGraphSearch;
import org.onlab.graph.DisjointPathPair;
import org.onlab.graph.Graph;
import org.onlab.graph.GraphPathSearch;
import org.onlab.graph.Path;
import org.onlab.graph.SuurballeGraphSearch;
import org.flowbuf.api.congestion.CcPath;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Routes over a known set of links (the embedded host's netcfg topology)
 * by onlab's graph searches: Dijkstra for one route, Suurballe for a
 * disjoint pair, both on the {@link SplitGraph} so that "disjoint" means
 * no shared link and no shared switch but the ends.
 */
public final class SuurballePathFinder implements DisjointPathFinder {

    /** The shorter route first; between equals, the one by lower switch ids and ports. */
    static final Comparator<List<Link>> SHORTER_FIRST = Comparator.<List<Link>>comparingInt(List::size)
            .thenComparing(route -> route.stream().map(l -> l.src().toString())
                    .collect(Collectors.joining(",")));

    private final Supplier<Collection<Link>> links;

    /**
     * Creates a finder.
     *
     * @param links the directed links, read at each search
     */
    public SuurballePathFinder(Supplier<Collection<Link>> links) {
        this.links = Objects.requireNonNull(links);
    }

    @Override
    public Optional<List<Link>> shortest(DeviceId src, DeviceId dst) {
        return dijkstra(SplitGraph.of(links.get(), Set.of(), Set.of()), src, dst);
    }

    @Override
    public Optional<List<List<Link>>> disjointPair(DeviceId src, DeviceId dst) {
        Graph<SplitGraph.Side, SplitGraph.Hop> graph =
                SplitGraph.of(links.get(), Set.of(), Set.of());
        if (!graph.getVertexes().contains(SplitGraph.from(src))
                || !graph.getVertexes().contains(SplitGraph.to(dst))) {
            return Optional.empty();
        }
        GraphPathSearch.Result<SplitGraph.Side, SplitGraph.Hop> result =
                new SuurballeGraphSearch<SplitGraph.Side, SplitGraph.Hop>().search(
                        graph, SplitGraph.from(src), SplitGraph.to(dst), SplitGraph.HOPS,
                        GraphPathSearch.ALL_PATHS);
        for (Path<SplitGraph.Side, SplitGraph.Hop> p : result.paths()) {
            DisjointPathPair<SplitGraph.Side, SplitGraph.Hop> pair =
                    (DisjointPathPair<SplitGraph.Side, SplitGraph.Hop>) p;
            if (!pair.hasBackup()) {
                continue;
            }
            List<List<Link>> routes = List.of(SplitGraph.links(pair.primary()),
                                              SplitGraph.links(pair.secondary()))
                    .stream().sorted(SHORTER_FIRST)
                    .collect(Collectors.toList());
            if (disjoint(routes.get(0), routes.get(1))) {
                return Optional.of(routes);
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<List<Link>> disjointFrom(DeviceId src, DeviceId dst, CcPath path) {
        Set<ConnectPoint> ports = path.hops().stream()
                .map(h -> new ConnectPoint(h.device(), h.outPort())).collect(Collectors.toSet());
        Set<DeviceId> interior = new HashSet<>(path.restDevices());
        interior.remove(dst);
        return dijkstra(SplitGraph.of(links.get(), ports, interior), src, dst);
    }

    /**
     * The switches of a route but its ends.
     *
     * @param route links
     * @return switches
     */
    static Set<DeviceId> interior(List<Link> route) {
        Set<DeviceId> devices = new HashSet<>();
        for (int i = 1; i < route.size(); i++) {
            devices.add(route.get(i).src().deviceId());
        }
        return devices;
    }

    /**
     * No shared link (either direction) and no shared switch but the ends.
     *
     * @param a one route
     * @param b another
     * @return true when disjoint
     */
    static boolean disjoint(List<Link> a, List<Link> b) {
        Set<DeviceId> shared = interior(a);
        shared.retainAll(interior(b));
        if (!shared.isEmpty()) {
            return false;
        }
        return a.stream().noneMatch(x -> b.stream().anyMatch(
                y -> x.src().equals(y.src()) || x.src().equals(y.dst())));
    }

    private static Optional<List<Link>> dijkstra(Graph<SplitGraph.Side, SplitGraph.Hop> graph,
                                                 DeviceId src, DeviceId dst) {
        if (!graph.getVertexes().contains(SplitGraph.from(src))
                || !graph.getVertexes().contains(SplitGraph.to(dst))) {
            return Optional.empty();
        }
        return new DijkstraGraphSearch<SplitGraph.Side, SplitGraph.Hop>()
                .search(graph, SplitGraph.from(src), SplitGraph.to(dst), SplitGraph.HOPS, 1)
                .paths().stream().findFirst().map(SplitGraph::links);
    }
}
