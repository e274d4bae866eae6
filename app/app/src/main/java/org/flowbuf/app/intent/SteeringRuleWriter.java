/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.onosproject.net.DeviceId;

/**
 * Writes steering rules to a device: through ONOS's FlowRuleService as PI
 * flow rules in ONOS, through a P4Runtime client in the embedded host.
 */
public interface SteeringRuleWriter {

    /**
     * Installs a rule; returns once the device accepted it.
     *
     * @param deviceId device
     * @param rule     the rule
     * @throws org.flowbuf.api.FlowBufException when the device refused it
     */
    void install(DeviceId deviceId, SteeringRule rule);

    /**
     * Changes where an installed rule with the same match sends packets, in
     * one device write (no window without the rule).
     *
     * @param deviceId device
     * @param rule     the rule with its new out port
     * @throws org.flowbuf.api.FlowBufException when the device refused it
     */
    void modify(DeviceId deviceId, SteeringRule rule);

    /**
     * Removes a rule.
     *
     * @param deviceId device
     * @param rule     the rule
     * @throws org.flowbuf.api.FlowBufException when the device refused it
     */
    void remove(DeviceId deviceId, SteeringRule rule);
}
