/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.onosproject.net.PortNumber;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The anchor's half of FMM: a multicast group with a port towards each eNB
 * of a plan, and the rule that sends the UE's downlink to it.
 */
final class AnchorMulticast {

    /** Above LMM's path rule, so an FMM session wins over a path LMM left. */
    static final int MULTICAST_PRIORITY = AnchorPaths.PATH_PRIORITY + 10;

    private final SteeringRuleWriter rules;
    private final MulticastGroupWriter groups;

    AnchorMulticast(SteeringRuleWriter rules, MulticastGroupWriter groups) {
        this.rules = Objects.requireNonNull(rules);
        this.groups = Objects.requireNonNull(groups);
    }

    // Group first, then the rule: the rule never points at a missing group.
    void start(FmmPlan plan, int group, Rollback undo) {
        groups.write(plan.anchor(), group, ports(plan));
        undo.add(() -> groups.remove(plan.anchor(), group));
        SteeringRule rule = rule(plan, group);
        rules.install(plan.anchor(), rule);
        undo.add(() -> rules.remove(plan.anchor(), rule));
    }

    // The rule first: the downlink falls back to the anchor's own routing.
    void stop(FmmPlan plan, int group) {
        rules.remove(plan.anchor(), rule(plan, group));
        groups.remove(plan.anchor(), group);
    }

    private static SteeringRule rule(FmmPlan plan, int group) {
        return SteeringRule.toMulticastGroup(plan.downlink(), plan.anchorIn().port().toLong(),
                                             group, MULTICAST_PRIORITY);
    }

    private static List<PortNumber> ports(FmmPlan plan) {
        return plan.cells().stream().map(c -> c.anchorPort().port()).collect(Collectors.toList());
    }
}
