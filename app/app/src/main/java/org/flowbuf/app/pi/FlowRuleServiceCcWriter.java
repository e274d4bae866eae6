/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.congestion.CcWrite;
import org.flowbuf.app.congestion.CcWriter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleService;

import java.time.Duration;

/**
 * Writes the congestion service's entries through ONOS's FlowRuleService:
 * the removals, the inserts and the modifications, a batch each, in that
 * order. When the inserts or the modifications are refused, the inserts are
 * removed again (a modification already made stays).
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
        try {
            batches.add(write.inserts(), "insert " + write.inserts().size()
                    + " congestion entries on " + deviceId);
            batches.modify(write.modifies(), "modify " + write.modifies().size()
                    + " congestion entries on " + deviceId);
        } catch (FlowBufException e) {
            batches.takeBack(write.inserts(), e);
            throw e;
        }
    }
}
