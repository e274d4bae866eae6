/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.CcPath;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;

import java.util.List;
import java.util.Optional;

/**
 * Routes between switches for the congestion service. Routes are lists of
 * directed links, the first leaving the source switch.
 *
 * <p>Two routes of a flow must share no link and no switch but their ends:
 * congestion.p4 keys a flow's next hop by (flow, slot), not by the port a
 * packet came in by, so a switch on both routes could forward only one of
 * them.
 */
public interface DisjointPathFinder {

    /**
     * The shortest route.
     *
     * @param src source switch
     * @param dst destination switch, not src
     * @return links, empty when dst is out of reach
     */
    Optional<List<Link>> shortest(DeviceId src, DeviceId dst);

    /**
     * A pair of disjoint routes, the shorter first, of least total length.
     *
     * @param src source switch
     * @param dst destination switch, not src
     * @return the pair, empty when the topology has none
     */
    Optional<List<List<Link>>> disjointPair(DeviceId src, DeviceId dst);

    /**
     * The shortest route disjoint from a given one (a new backup).
     *
     * @param src   source switch
     * @param dst   destination switch, not src
     * @param path  the path to avoid: its links (by their ports) and its switches but the ends
     * @return links, empty when there is none
     */
    Optional<List<Link>> disjointFrom(DeviceId src, DeviceId dst, CcPath path);
}
