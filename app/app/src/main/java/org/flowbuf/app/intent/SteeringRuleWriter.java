/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;

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
     * @param rule     the rule with its new action (out port or multicast group)
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

    /**
     * Installs several rules, all or none: when one is refused, those
     * already installed are removed again before the refusal is thrown.
     * Writers that can should send them in one device write.
     *
     * @param deviceId device
     * @param rules    the rules
     * @throws org.flowbuf.api.FlowBufException when the device refused one
     */
    default void installAll(DeviceId deviceId, List<SteeringRule> rules) {
        List<SteeringRule> done = new ArrayList<>();
        try {
            for (SteeringRule rule : rules) {
                install(deviceId, rule);
                done.add(rule);
            }
        } catch (FlowBufException e) {
            removeAll(deviceId, done);
            throw e;
        }
    }

    /**
     * Removes several rules; goes on past a refusal and throws the first.
     *
     * @param deviceId device
     * @param rules    the rules
     * @throws org.flowbuf.api.FlowBufException when the device refused one
     */
    default void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
        FlowBufException first = null;
        for (SteeringRule rule : rules) {
            try {
                remove(deviceId, rule);
            } catch (FlowBufException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
