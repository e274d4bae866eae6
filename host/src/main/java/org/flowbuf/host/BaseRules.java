/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.pipeconf.FlowBufP4Names;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.host.netcfg.HostEntry;
import org.flowbuf.host.netcfg.SwitchEntry;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayList;
import java.util.List;

/**
 * The rules a switch needs before any pause: its vport ports marked as
 * replay sources, and L2 forwarding to the hosts netcfg places on it (what
 * ONOS's host provider and forwarding apps would install in ONOS mode).
 */
final class BaseRules {

    private BaseRules() {
    }

    static List<FlowRule> of(ApplicationId appId, SwitchEntry sw, List<HostEntry> hosts) {
        List<FlowRule> rules = new ArrayList<>();
        sw.flowbuf().ifPresent(config -> {
            for (VportSlot slot : config.vportSlots()) {
                rules.add(SteeringFlowRules.vportPortRule(appId, sw.deviceId(), slot.switchPort()));
            }
        });
        for (HostEntry host : hosts) {
            if (host.location().deviceId().equals(sw.deviceId())) {
                rules.add(l2Rule(appId, sw, host));
            }
        }
        return rules;
    }

    private static FlowRule l2Rule(ApplicationId appId, SwitchEntry sw, HostEntry host) {
        PiCriterion match = PiCriterion.builder()
                .matchExact(FlowBufP4Names.ETH_DST, host.mac().toBytes()).build();
        PiAction action = PiAction.builder().withId(FlowBufP4Names.SET_EGRESS_PORT)
                .withParameter(new PiActionParam(FlowBufP4Names.PORT,
                                                 host.location().port().toLong()))
                .build();
        return DefaultFlowRule.builder().forDevice(sw.deviceId())
                .forTable(FlowBufP4Names.L2_EXACT).fromApp(appId)
                .withPriority(FlowRule.MIN_PRIORITY).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
