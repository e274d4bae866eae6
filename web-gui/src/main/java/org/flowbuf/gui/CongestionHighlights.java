/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.Link;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.LinkHighlight;
import org.onosproject.ui.topo.Mod;
import org.onosproject.ui.topo.TopoUtils;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * A latency-critical flow's paths as link highlights: the links of the
 * path it takes in the primary flavour with class {@code flowbuf-cc-primary},
 * those of its backup in the secondary flavour with {@code flowbuf-cc-backup}.
 * The classes follow the flow's record, so a switch-over (the backup
 * promoted) swaps them at the next refresh.
 */
final class CongestionHighlights {

    static final Mod PRIMARY = new Mod("flowbuf-cc-primary");
    static final Mod BACKUP = new Mod("flowbuf-cc-backup");

    private CongestionHighlights() {
    }

    /**
     * Adds a flow's paths to the highlights.
     *
     * @param highlights what the overlay sends
     * @param flow       the flow
     * @param egress     the links leaving a port (LinkService#getEgressLinks)
     */
    static void addTo(Highlights highlights, LatencyCriticalFlow flow,
                      Function<ConnectPoint, Collection<Link>> egress) {
        for (Link link : links(flow.primary(), egress)) {
            highlights.add(new LinkHighlight(TopoUtils.compactLinkString(link),
                                             LinkHighlight.Flavor.PRIMARY_HIGHLIGHT)
                                   .addMod(PRIMARY).setLabel("primary"));
        }
        flow.backup().ifPresent(backup -> links(backup, egress).forEach(
                link -> highlights.add(new LinkHighlight(TopoUtils.compactLinkString(link),
                                                         LinkHighlight.Flavor.SECONDARY_HIGHLIGHT)
                                               .addMod(BACKUP).setLabel("backup"))));
    }

    /**
     * The links between a path's switches: each hop but the last leaves by
     * its port towards the next hop's switch. A link the topology no longer
     * has is left out (the path is redrawn once the controller moves it).
     *
     * @param path   the path
     * @param egress the links leaving a port
     * @return links in path order
     */
    static List<Link> links(CcPath path, Function<ConnectPoint, Collection<Link>> egress) {
        List<CcHop> hops = path.hops();
        List<Link> links = new ArrayList<>();
        for (int i = 0; i + 1 < hops.size(); i++) {
            CcHop hop = hops.get(i);
            CcHop next = hops.get(i + 1);
            egress.apply(new ConnectPoint(hop.device(), hop.outPort())).stream()
                    .filter(l -> l.dst().deviceId().equals(next.device()))
                    .findFirst().ifPresent(links::add);
        }
        return links;
    }
}
