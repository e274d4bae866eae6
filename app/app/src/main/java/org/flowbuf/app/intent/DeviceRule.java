/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * A steering rule on a device: the key under which an intent store finds
 * which installed intent owns a rule.
 */
public final class DeviceRule {

    private final DeviceId deviceId;
    private final SteeringRule rule;

    /**
     * Creates the key.
     *
     * @param deviceId device
     * @param rule     rule on it
     */
    public DeviceRule(DeviceId deviceId, SteeringRule rule) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.rule = Objects.requireNonNull(rule);
    }

    /**
     * The device.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The rule.
     *
     * @return rule
     */
    public SteeringRule rule() {
        return rule;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DeviceRule)) {
            return false;
        }
        DeviceRule other = (DeviceRule) o;
        return deviceId.equals(other.deviceId) && rule.equals(other.rule);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, rule);
    }

    @Override
    public String toString() {
        return deviceId + " " + rule;
    }
}
