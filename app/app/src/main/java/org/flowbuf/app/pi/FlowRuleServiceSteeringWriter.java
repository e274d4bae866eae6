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
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes steering rules through ONOS's FlowRuleService and waits until the
 * device confirms them: the intent planner orders its steps to keep packets
 * in order, which only holds if a step is done before the next one starts.
 */
public final class FlowRuleServiceSteeringWriter implements SteeringRuleWriter {

    private final ApplicationId appId;
    private final FlowRuleService flowRules;
    private final Duration timeout;

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
        this.flowRules = Objects.requireNonNull(flowRules);
        this.timeout = Objects.requireNonNull(timeout);
    }

    @Override
    public void install(DeviceId deviceId, SteeringRule rule) {
        FlowRule flowRule = SteeringFlowRules.toFlowRule(appId, deviceId, rule);
        apply(FlowRuleOperations.builder().add(flowRule), "install", rule);
    }

    @Override
    public void modify(DeviceId deviceId, SteeringRule rule) {
        // ONOS keys a flow rule by device, table, selector and priority: an
        // add of the same key with a new treatment is a modify.
        FlowRule flowRule = SteeringFlowRules.toFlowRule(appId, deviceId, rule);
        apply(FlowRuleOperations.builder().modify(flowRule), "modify", rule);
    }

    @Override
    public void remove(DeviceId deviceId, SteeringRule rule) {
        FlowRule flowRule = SteeringFlowRules.toFlowRule(appId, deviceId, rule);
        apply(FlowRuleOperations.builder().remove(flowRule), "remove", rule);
    }

    /**
     * One batch of adds; when the device refuses it, the batch's rules are
     * removed again (ONOS does not say which of a failed batch were
     * applied, and removing one that was not is harmless).
     */
    @Override
    public void installAll(DeviceId deviceId, List<SteeringRule> rules) {
        if (rules.isEmpty()) {
            return;
        }
        FlowRuleOperations.Builder adds = FlowRuleOperations.builder();
        rules.forEach(r -> adds.add(SteeringFlowRules.toFlowRule(appId, deviceId, r)));
        try {
            apply(adds, "install", rules.size() + " rules");
        } catch (FlowBufException e) {
            try {
                removeAll(deviceId, rules);
            } catch (FlowBufException alsoRefused) {
                e.addSuppressed(alsoRefused);
            }
            throw e;
        }
    }

    @Override
    public void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
        if (rules.isEmpty()) {
            return;
        }
        FlowRuleOperations.Builder removes = FlowRuleOperations.builder();
        rules.forEach(r -> removes.remove(SteeringFlowRules.toFlowRule(appId, deviceId, r)));
        apply(removes, "remove", rules.size() + " rules");
    }

    private void apply(FlowRuleOperations.Builder ops, String what, Object rule) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        flowRules.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations operations) {
                done.complete(true);
            }

            @Override
            public void onError(FlowRuleOperations operations) {
                done.complete(false);
            }
        }));
        boolean ok;
        try {
            ok = done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "interrupted while waiting to " + what + " " + rule, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device did not confirm " + what + " of " + rule
                                               + " within " + timeout.toMillis() + " ms", e);
        }
        if (!ok) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device refused to " + what + " " + rule);
        }
    }
}
