/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * The writer returns only once ONOS confirmed the change, and fails when the
 * device refuses it or never answers.
 */
public class FlowRuleServiceSteeringWriterTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:s1");
    private static final SteeringRule RULE =
            new SteeringRule(FlowFilter.builder().ipProto(17).build(), false, 1L, 10, 100);

    /** Answers every batch as told. */
    private static final class ScriptedFlowRules extends FlowRuleServiceAdapter {
        private final Boolean answer;
        private final List<FlowRuleOperation.Type> applied = new ArrayList<>();

        ScriptedFlowRules(Boolean answer) {
            this.answer = answer;
        }

        @Override
        public void apply(FlowRuleOperations ops) {
            ops.stages().forEach(stage -> stage.forEach(op -> applied.add(op.type())));
            if (answer == null) {
                return;
            }
            if (answer) {
                ops.callback().onSuccess(ops);
            } else {
                ops.callback().onError(ops);
            }
        }
    }

    private static FlowRuleServiceSteeringWriter writer(ScriptedFlowRules service) {
        return new FlowRuleServiceSteeringWriter(new DefaultApplicationId(1, "org.flowbuf.app"),
                                                 service, Duration.ofMillis(200));
    }

    @Test
    public void installAndRemoveIssueOneOperationEach() {
        ScriptedFlowRules service = new ScriptedFlowRules(true);
        writer(service).install(DEVICE, RULE);
        writer(service).remove(DEVICE, RULE);
        assertEquals(List.of(FlowRuleOperation.Type.ADD, FlowRuleOperation.Type.REMOVE),
                     service.applied);
    }

    @Test
    public void refusedInstallIsAnError() {
        try {
            writer(new ScriptedFlowRules(false)).install(DEVICE, RULE);
            fail("a refused rule must not look installed");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
    }

    @Test
    public void unansweredInstallTimesOut() {
        try {
            writer(new ScriptedFlowRules(null)).install(DEVICE, RULE);
            fail("an unconfirmed rule must not look installed");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
    }
}
