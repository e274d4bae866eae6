/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.congestion.CcWrite;
import org.flowbuf.app.congestion.CcWriter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the congestion service's entries through ONOS's FlowRuleService:
 * the removals in one batch, then the inserts and modifications in another
 * (ONOS writes a rule with the match and priority of one the device has as
 * a modification). When that batch is refused, its inserts are removed again.
 */
public final class FlowRuleServiceCcWriter implements CcWriter {

    private final FlowRuleBatches batches;

    /**
     * Creates the writer.
     *
     * @param flowRules ONOS flow rule service
     * @param timeout   how long to wait for the device to confirm a batch
     */
    public FlowRuleServiceCcWriter(FlowRuleService flowRules, Duration timeout) {
        this.batches = new FlowRuleBatches(flowRules, timeout);
    }

    @Override
    public void write(DeviceId deviceId, CcWrite write) {
        batches.remove(write.removes(), "remove " + write.removes().size()
                + " congestion entries from " + deviceId);
        List<FlowRule> applies = new ArrayList<>(write.inserts());
        applies.addAll(write.modifies());
        try {
            batches.add(applies, "write " + applies.size() + " congestion entries on " + deviceId);
        } catch (FlowBufException e) {
            batches.takeBack(write.inserts(), e);
            throw e;
        }
    }
}
