/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onlab.graph.AdjacencyListsGraph;
import org.onlab.graph.Edge;
import org.onlab.graph.EdgeWeigher;
import org.onlab.graph.Graph;
import org.onlab.graph.ScalarWeight;
import org.onlab.graph.Vertex;
import org.onlab.graph.Weight;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The switch graph with every switch split in two (in, out) joined by one
 * edge, so that edge-disjoint routes in it are switch-disjoint routes of
 * the network (Suurballe finds edge-disjoint pairs).
 */
final class SplitGraph {

    /** A switch's entry or exit side. */
    static final class Side implements Vertex {
        private final DeviceId device;
        private final boolean out;

        Side(DeviceId device, boolean out) {
            this.device = device;
            this.out = out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Side && ((Side) o).device.equals(device) && ((Side) o).out == out;
        }

        @Override
        public int hashCode() {
            return Objects.hash(device, out);
        }

        @Override
        public String toString() {
            return device + (out ? "+out" : "+in");
        }
    }

    /** A network link (out side to in side), or a switch's own in-to-out edge. */
    static final class Hop implements Edge<Side> {
        private final Side src;
        private final Side dst;
        private final Link link;

        Hop(Side src, Side dst, Link link) {
            this.src = src;
            this.dst = dst;
            this.link = link;
        }

        @Override
        public Side src() {
            return src;
        }

        @Override
        public Side dst() {
            return dst;
        }

        Optional<Link> link() {
            return Optional.ofNullable(link);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Hop)) {
                return false;
            }
            Hop h = (Hop) o;
            return src.equals(h.src) && dst.equals(h.dst) && Objects.equals(link, h.link);
        }

        @Override
        public int hashCode() {
            return Objects.hash(src, dst, link);
        }

        @Override
        public String toString() {
            return src + "->" + dst;
        }
    }

    /** Hop count: links weigh 1, a switch's own edge nothing. */
    static final EdgeWeigher<Side, Hop> HOPS = new EdgeWeigher<>() {
        @Override
        public Weight weight(Hop edge) {
            return ScalarWeight.toWeight(edge.link().isPresent() ? 1 : 0);
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

    private SplitGraph() {
    }

    /**
     * The split graph of some links, leaving out the links (either
     * direction) at given ports and the links of given switches.
     *
     * @param links           the network's directed links
     * @param withoutPorts    ports whose links are left out
     * @param withoutSwitches switches left out
     * @return the graph
     */
    static Graph<Side, Hop> of(Collection<Link> links, Set<ConnectPoint> withoutPorts,
                              Set<DeviceId> withoutSwitches) {
        Set<Side> sides = new HashSet<>();
        Set<Hop> hops = new HashSet<>();
        for (Link l : links) {
            DeviceId a = l.src().deviceId();
            DeviceId b = l.dst().deviceId();
            if (withoutSwitches.contains(a) || withoutSwitches.contains(b)
                    || withoutPorts.contains(l.src()) || withoutPorts.contains(l.dst())) {
                continue;
            }
            for (DeviceId d : List.of(a, b)) {
                Side in = new Side(d, false);
                Side out = new Side(d, true);
                sides.add(in);
                sides.add(out);
                hops.add(new Hop(in, out, null));
            }
            hops.add(new Hop(new Side(a, true), new Side(b, false), l));
        }
        return new AdjacencyListsGraph<>(sides, hops);
    }

    /**
     * The network links of a route in the split graph.
     *
     * @param path a route in the split graph
     * @return its network links
     */
    static List<Link> links(org.onlab.graph.Path<Side, Hop> path) {
        return path.edges().stream().map(Hop::link).flatMap(Optional::stream)
                .collect(Collectors.toList());
    }

    static Side from(DeviceId src) {
        return new Side(src, true);
    }

    static Side to(DeviceId dst) {
        return new Side(dst, false);
    }
}
