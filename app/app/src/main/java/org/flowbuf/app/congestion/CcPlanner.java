/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.flowbuf.api.congestion.CongestionMode;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans where a latency-critical flow goes: its hosts resolved, its
 * primary and backup paths, and its thresholds on each switch.
 */
final class CcPlanner {

    private final CcHosts hosts;
    private final DisjointPathFinder paths;
    private final ThresholdPolicy policy;

    CcPlanner(CcHosts hosts, DisjointPathFinder paths, ThresholdPolicy policy) {
        this.hosts = hosts;
        this.paths = paths;
        this.policy = policy;
    }

    /**
     * The layout of a new flow with a given index.
     *
     * @param request the request
     * @param index   a free flow index
     * @return the layout
     * @throws FlowBufException NOT_FOUND (host, path), INVALID (no disjoint pair, budget)
     */
    CcLayout plan(CcFlowRequest request, int index) {
        CcHosts.Endpoint src = endpoint(request.srcHost(), "srcHost");
        CcHosts.Endpoint dst = endpoint(request.dstHost(), "dstHost");
        DeviceId from = src.location().deviceId();
        DeviceId to = dst.location().deviceId();
        CcPath primary;
        CcPath backup = null;
        if (request.mode() == CongestionMode.NOCC) {
            primary = path(from.equals(to) ? List.of() : paths.shortest(from, to).orElseThrow(
                    () -> FlowBufException.notFound("no path from %s to %s", from, to)),
                           dst.location());
        } else {
            if (from.equals(to)) {
                throw FlowBufException.invalid("both hosts are on %s: no disjoint backup path "
                                                       + "(NOCC mode needs none)", from);
            }
            List<List<Link>> pair = paths.disjointPair(from, to).orElseThrow(
                    () -> FlowBufException.invalid("no disjoint pair of paths from %s to %s: "
                                                           + "no backup (NOCC mode needs none)",
                                                   from, to));
            primary = path(pair.get(0), dst.location());
            backup = path(pair.get(1), dst.location());
        }
        return new CcLayout(index, request.filter().withoutInPort(), dst.mac(), primary, backup, 0,
                            thresholds(request, primary, backup), request.mode());
    }

    /**
     * A new backup for a flow whose primary is now {@code primary}, if the topology has one.
     *
     * @param primary the path the flow takes now
     * @return the new backup, empty when the topology has none
     */
    Optional<CcPath> backupFor(CcPath primary) {
        DeviceId from = primary.first().device();
        List<CcHop> hops = primary.hops();
        DeviceId to = hops.get(hops.size() - 1).device();
        ConnectPoint exit = new ConnectPoint(to, hops.get(hops.size() - 1).outPort());
        return paths.disjointFrom(from, to, primary).map(route -> path(route, exit));
    }

    /**
     * Thresholds on the switches of both paths: those on the primary
     * derived over the primary, the backup's own switches over the backup;
     * none in NOCC and PROBING modes (nothing reacts in the data plane).
     *
     * @param request the flow's request
     * @param primary its primary
     * @param backup  its backup, null when none
     * @return thresholds per switch
     */
    Map<DeviceId, CcThresholds> thresholds(CcFlowRequest request, CcPath primary, CcPath backup) {
        if (request.mode() != CongestionMode.DATAPLANE) {
            return Map.of();
        }
        double x = request.factor().orElse(policy.factor());
        Map<DeviceId, CcThresholds> limits = new LinkedHashMap<>();
        if (backup != null) {
            limits.putAll(policy.derive(backup, request.budgetUs(), x, request.m()));
        }
        limits.putAll(policy.derive(primary, request.budgetUs(), x, request.m()));
        return limits;
    }

    /**
     * The switch a flow enters the network at: its source host's.
     *
     * @param request the request
     * @return the switch
     * @throws FlowBufException NOT_FOUND when the host is not known
     */
    DeviceId source(CcFlowRequest request) {
        return endpoint(request.srcHost(), "srcHost").location().deviceId();
    }

    private CcHosts.Endpoint endpoint(String host, String field) {
        return hosts.find(host).orElseThrow(
                () -> FlowBufException.notFound("%s: no host %s", field, host));
    }

    /**
     * A route's hops, then the destination switch's port to the host.
     *
     * @param route links from the source switch
     * @param exit  the destination host's switch port
     * @return the path
     */
    static CcPath path(List<Link> route, ConnectPoint exit) {
        List<CcHop> hops = new ArrayList<>();
        for (Link l : route) {
            hops.add(new CcHop(l.src().deviceId(), l.src().port()));
        }
        hops.add(new CcHop(exit.deviceId(), exit.port()));
        return new CcPath(hops);
    }
}
