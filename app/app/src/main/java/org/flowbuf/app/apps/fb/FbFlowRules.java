/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fb;

import org.flowbuf.app.config.FbDeviceConfig;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.flowbuf.pipeconf.FbP4Names.ALPHA_ID;
import static org.flowbuf.pipeconf.FbP4Names.BUFFER;
import static org.flowbuf.pipeconf.FbP4Names.CLASSES;
import static org.flowbuf.pipeconf.FbP4Names.FB_CLASS;
import static org.flowbuf.pipeconf.FbP4Names.HIGH;
import static org.flowbuf.pipeconf.FbP4Names.KEY_ACTIVE;
import static org.flowbuf.pipeconf.FbP4Names.KEY_ALPHA_ID;
import static org.flowbuf.pipeconf.FbP4Names.KEY_CONGESTED;
import static org.flowbuf.pipeconf.FbP4Names.KEY_EGRESS_PORT;
import static org.flowbuf.pipeconf.FbP4Names.KEY_PRIORITY;
import static org.flowbuf.pipeconf.FbP4Names.LEFT;
import static org.flowbuf.pipeconf.FbP4Names.PACKETS;
import static org.flowbuf.pipeconf.FbP4Names.QUEUE;
import static org.flowbuf.pipeconf.FbP4Names.RIGHT;
import static org.flowbuf.pipeconf.FbP4Names.SET_BUFFER;
import static org.flowbuf.pipeconf.FbP4Names.SET_SHIFT;
import static org.flowbuf.pipeconf.FbP4Names.SHIFT;

/**
 * The PI entries that run FB on a device, from its "fb" config: a class
 * entry per port and queue, the shift table for the classes' alphas, and
 * B as fb_buffer's default action (the rule with no match).
 */
public final class FbFlowRules {

    private static final int PRIORITY = 10;
    private static final int QUEUE_MASK = FbDeviceConfig.QUEUES - 1;

    private FbFlowRules() {
    }

    /**
     * Every entry, the default action last.
     *
     * @param appId    the app writing them
     * @param deviceId the device
     * @param config   its valid "fb" config
     * @return flow rules
     */
    public static List<FlowRule> of(ApplicationId appId, DeviceId deviceId,
                                    FbDeviceConfig config) {
        double[] alphas = config.alphas();
        boolean[] high = config.high();
        Map<Double, Integer> alphaIds = new TreeMap<>();
        for (double a : alphas) {
            alphaIds.putIfAbsent(a, alphaIds.size());
        }
        List<FlowRule> rules = new ArrayList<>();
        for (long port : config.ports()) {
            for (int q = 0; q < FbDeviceConfig.QUEUES; q++) {
                PiCriterion match = PiCriterion.builder().matchExact(KEY_EGRESS_PORT, port)
                        .matchTernary(KEY_PRIORITY, q, QUEUE_MASK).build();
                PiAction action = PiAction.builder().withId(FB_CLASS)
                        .withParameter(new PiActionParam(QUEUE, q))
                        .withParameter(new PiActionParam(ALPHA_ID, alphaIds.get(alphas[q])))
                        .withParameter(new PiActionParam(HIGH, high[q] ? 1 : 0)).build();
                rules.add(rule(appId, deviceId, CLASSES, match, action));
            }
        }
        Map<Integer, Double> byId = new TreeMap<>();
        alphaIds.forEach((alpha, id) -> byId.put(id, alpha));
        int maxCongested = config.ports().size() * FbDeviceConfig.QUEUES;
        for (FbShiftPlan.Entry e : FbShiftPlan.entries(byId, maxCongested)) {
            long activeHigh = e.active() == FbShiftPlan.QUEUES_PER_PORT
                    ? FbShiftPlan.KEY_MAX : e.active();
            PiCriterion match = PiCriterion.builder().matchExact(KEY_ALPHA_ID, e.alphaId())
                    .matchRange(KEY_CONGESTED, e.congestedLow(), e.congestedHigh())
                    .matchRange(KEY_ACTIVE, e.active(), activeHigh).build();
            PiAction action = PiAction.builder().withId(SET_SHIFT)
                    .withParameter(new PiActionParam(LEFT, e.left()))
                    .withParameter(new PiActionParam(RIGHT, e.right())).build();
            rules.add(rule(appId, deviceId, SHIFT, match, action));
        }
        PiAction buffer = PiAction.builder().withId(SET_BUFFER)
                .withParameter(new PiActionParam(PACKETS, config.bufferPackets())).build();
        rules.add(rule(appId, deviceId, BUFFER, null, buffer));
        return rules;
    }

    /** A rule; with no match (null), the table's default action, as ONOS writes it. */
    private static FlowRule rule(ApplicationId appId, DeviceId deviceId, PiTableId table,
                                 PiCriterion match, PiAction action) {
        TrafficSelector.Builder selector = DefaultTrafficSelector.builder();
        if (match != null) {
            selector.matchPi(match);
        }
        return DefaultFlowRule.builder().forDevice(deviceId).forTable(table).fromApp(appId)
                .withPriority(PRIORITY).makePermanent().withSelector(selector.build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
