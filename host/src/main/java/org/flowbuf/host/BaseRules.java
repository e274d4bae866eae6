/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.pipeconf.FlowBufP4Names;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.host.netcfg.HostEntry;
import org.flowbuf.host.netcfg.LinkEntry;
import org.flowbuf.host.netcfg.SwitchEntry;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules a switch needs before any pause: its vport ports marked as
 * replay sources, and L2 forwarding to every host of the netcfg: out of the
 * host's port when it is attached here, else towards it along the netcfg's
 * links (what ONOS's host provider and forwarding apps would install in
 * ONOS mode).
 */
final class BaseRules {

    private BaseRules() {
    }

    static List<FlowRule> of(ApplicationId appId, SwitchEntry sw, List<HostEntry> hosts,
                             List<LinkEntry> links) {
        List<FlowRule> rules = new ArrayList<>();
        sw.flowbuf().ifPresent(config -> {
            // Logical vports of one port share its rule.
            config.vportSlots().stream().map(VportSlot::switchPort).distinct().forEach(
                    port -> rules.add(SteeringFlowRules.vportPortRule(appId, sw.deviceId(), port)));
        });
        for (HostEntry host : hosts) {
            portTowards(sw.deviceId(), host, links)
                    .ifPresent(port -> rules.add(l2Rule(appId, sw, host, port)));
        }
        return rules;
    }

    /**
     * The host's own port here, or the first hop of a shortest path to its
     * first location.
     *
     * @param here  this switch
     * @param host  the host
     * @param links the links
     * @return the port, empty when the host is out of reach
     */
    static Optional<Long> portTowards(DeviceId here, HostEntry host, List<LinkEntry> links) {
        Optional<ConnectPoint> attached = host.locations().stream()
                .filter(l -> l.deviceId().equals(here)).findFirst();
        if (attached.isPresent()) {
            return Optional.of(attached.get().port().toLong());
        }
        return firstHop(here, host.location().deviceId(), links);
    }

    private static Optional<Long> firstHop(DeviceId from, DeviceId to, List<LinkEntry> links) {
        // Breadth-first from `from`, remembering the port each device was first reached through.
        Map<DeviceId, Long> viaPort = new HashMap<>();
        Deque<DeviceId> queue = new ArrayDeque<>(List.of(from));
        viaPort.put(from, -1L);
        while (!queue.isEmpty()) {
            DeviceId at = queue.poll();
            for (LinkEntry link : links) {
                Optional<ConnectPoint> near = link.endAt(at);
                if (near.isEmpty()) {
                    continue;
                }
                DeviceId next = link.opposite(near.get()).deviceId();
                if (!viaPort.containsKey(next)) {
                    viaPort.put(next, at.equals(from) ? near.get().port().toLong()
                            : viaPort.get(at));
                    queue.add(next);
                }
            }
        }
        return Optional.ofNullable(viaPort.get(to)).filter(p -> p >= 0);
    }

    private static FlowRule l2Rule(ApplicationId appId, SwitchEntry sw, HostEntry host,
                                   long port) {
        PiCriterion match = PiCriterion.builder()
                .matchExact(FlowBufP4Names.ETH_DST, host.mac().toBytes()).build();
        PiAction action = PiAction.builder().withId(FlowBufP4Names.SET_EGRESS_PORT)
                .withParameter(new PiActionParam(FlowBufP4Names.PORT, port))
                .build();
        return DefaultFlowRule.builder().forDevice(sw.deviceId())
                .forTable(FlowBufP4Names.L2_EXACT).fromApp(appId)
                .withPriority(FlowRule.MIN_PRIORITY).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
