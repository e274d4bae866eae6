/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The anchor's choice of eNB per UE downlink: one steering rule, installed
 * at the first handoff and modified in place at later ones (a single device
 * write, so the anchor never forwards the downlink along neither path).
 */
final class AnchorPaths {

    /** Above the Buffer Service's pause and resume rules. */
    static final int PATH_PRIORITY = 300;

    private final SteeringRuleWriter rules;
    private final Map<FlowFilter, SteeringRule> installed = new ConcurrentHashMap<>();

    AnchorPaths(SteeringRuleWriter rules) {
        this.rules = Objects.requireNonNull(rules);
    }

    /**
     * Steers a downlink arriving at anchorIn out of port.
     *
     * @param downlink the UE's downlink
     * @param anchorIn where it arrives at the anchor
     * @param port     anchor port towards the eNB
     *
     * @return the rule this replaced, if any (to steer back with)
     */
    Optional<SteeringRule> steer(FlowFilter downlink, ConnectPoint anchorIn, PortNumber port) {
        SteeringRule rule = new SteeringRule(downlink, false, anchorIn.port().toLong(),
                                             port.toLong(), PATH_PRIORITY);
        SteeringRule before = installed.get(downlink);
        if (before == null) {
            rules.install(anchorIn.deviceId(), rule);
        } else {
            rules.modify(anchorIn.deviceId(), rule);
        }
        installed.put(downlink, rule);
        return Optional.ofNullable(before);
    }

    /**
     * Undoes a steer(): back to the rule it replaced, or to no rule.
     *
     * @param downlink the UE's downlink
     * @param anchorIn where it arrives at the anchor
     * @param before   what steer() returned
     */
    void restore(FlowFilter downlink, ConnectPoint anchorIn, Optional<SteeringRule> before) {
        if (before.isPresent()) {
            rules.modify(anchorIn.deviceId(), before.get());
            installed.put(downlink, before.get());
        } else {
            SteeringRule current = installed.remove(downlink);
            if (current != null) {
                rules.remove(anchorIn.deviceId(), current);
            }
        }
    }
}
