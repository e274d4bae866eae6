/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Writes steering rules through ONOS's FlowRuleService and waits until the
 * device confirms them: the intent planner orders its steps to keep packets
 * in order, which only holds if a step is done before the next one starts.
 */
public final class FlowRuleServiceSteeringWriter implements SteeringRuleWriter {

    private final ApplicationId appId;
    private final FlowRuleBatches batches;

    /**
     * Creates the writer.
     *
     * @param appId     owner of the flow rules
     * @param flowRules ONOS flow rule service
     * @param timeout   how long to wait for the device to confirm a change
     */
    public FlowRuleServiceSteeringWriter(ApplicationId appId, FlowRuleService flowRules,
                                         Duration timeout) {
        this.appId = Objects.requireNonNull(appId);
        this.batches = new FlowRuleBatches(flowRules, timeout);
    }

    @Override
    public void install(DeviceId deviceId, SteeringRule rule) {
        batches.add(List.of(SteeringFlowRules.toFlowRule(appId, deviceId, rule)),
                    "install " + rule);
    }

    @Override
    public void modify(DeviceId deviceId, SteeringRule rule) {
        batches.modify(List.of(SteeringFlowRules.toFlowRule(appId, deviceId, rule)),
                       "modify " + rule);
    }

    @Override
    public void remove(DeviceId deviceId, SteeringRule rule) {
        batches.remove(List.of(SteeringFlowRules.toFlowRule(appId, deviceId, rule)),
                       "remove " + rule);
    }

    /**
     * One batch of adds; when the device refuses it, the batch's rules are
     * removed again (ONOS does not say which of a failed batch were
     * applied, and removing one that was not is harmless).
     */
    @Override
    public void installAll(DeviceId deviceId, List<SteeringRule> rules) {
        List<FlowRule> flowRules = flowRules(deviceId, rules);
        try {
            batches.add(flowRules, "install " + rules.size() + " rules");
        } catch (FlowBufException e) {
            batches.takeBack(flowRules, e);
            throw e;
        }
    }

    @Override
    public void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
        batches.remove(flowRules(deviceId, rules), "remove " + rules.size() + " rules");
    }

    private List<FlowRule> flowRules(DeviceId deviceId, List<SteeringRule> rules) {
        return rules.stream().map(r -> SteeringFlowRules.toFlowRule(appId, deviceId, r))
                .collect(Collectors.toList());
    }
}
