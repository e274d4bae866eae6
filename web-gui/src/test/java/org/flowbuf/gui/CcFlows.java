/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.provider.ProviderId;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The test topology of congestion's lab (test/congestion/congestionlab.py,
 * FOUR_SWITCH): s1 -2- s2 -2- s4 above, s1 -3- s3 -2- s4 below, both
 * directions; and a flow h1 -> h2 on it.
 */
final class CcFlows {

    static final List<Link> LINKS = List.of(
            link("s1", 2, "s2", 1), link("s2", 1, "s1", 2),
            link("s1", 3, "s3", 1), link("s3", 1, "s1", 3),
            link("s2", 2, "s4", 1), link("s4", 1, "s2", 2),
            link("s3", 2, "s4", 2), link("s4", 2, "s3", 2));
    static final CcPath UPPER = path("s1", 2, "s2", 2, "s4", 3);
    static final CcPath LOWER = path("s1", 3, "s3", 2, "s4", 3);

    private CcFlows() {
    }

    static DeviceId sw(String name) {
        return DeviceId.deviceId("device:" + name);
    }

    static Link link(String a, long pa, String b, long pb) {
        return DefaultLink.builder().providerId(ProviderId.NONE).type(Link.Type.DIRECT)
                .src(new ConnectPoint(sw(a), PortNumber.portNumber(pa)))
                .dst(new ConnectPoint(sw(b), PortNumber.portNumber(pb))).build();
    }

    /** Path from (switch, out port) pairs. */
    static CcPath path(Object... hops) {
        List<CcHop> list = new java.util.ArrayList<>();
        for (int i = 0; i < hops.length; i += 2) {
            list.add(new CcHop(sw((String) hops[i]),
                               PortNumber.portNumber(((Integer) hops[i + 1]).longValue())));
        }
        return new CcPath(list);
    }

    static Collection<Link> egress(ConnectPoint point) {
        return LINKS.stream().filter(l -> l.src().equals(point)).collect(Collectors.toList());
    }

    /** Flow 7 on the upper path with the lower as its backup. */
    static LatencyCriticalFlow flow() {
        CcFlowRequest request = CcFlowRequest.builder().hosts("h1", "h2").budgetUs(1000).m(3)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.7.2/32")).build())
                .build();
        return new LatencyCriticalFlow(7, 0, request, UPPER, LOWER,
                                       Map.of(sw("s1"), new CcThresholds(500, 25000, 3)),
                                       List.of());
    }

    /** The flow after s1 moved it to the lower path and the upper became its backup. */
    static LatencyCriticalFlow switchedOver(LatencyCriticalFlow flow) {
        return flow.switchedOver(flow.backup().orElseThrow(), flow.primary(), flow.thresholds(),
                                 new SwitchOver(sw("s1"), 912, 41,
                                                Instant.parse("2026-11-26T01:00:00Z"), true));
    }
}
