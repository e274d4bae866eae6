/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * A firewall rule of a UPF device: packets of the direction whose UE-side
 * 5-tuple matches the filter are allowed or denied before any session
 * sees them. Where rules overlap, the higher priority wins (an allow makes
 * an exception to a broader deny); what no rule matches passes.
 */
public final class FirewallRule {

    /** What a rule does. */
    public enum Action {
        /** Let the packet through (an exception to a broader deny). */
        ALLOW,
        /** Drop the packet (counted as a firewall drop). */
        DENY
    }

    private final long id;
    private final DeviceId deviceId;
    private final UpfDirection direction;
    private final UpfFilter filter;
    private final Action action;
    private final int priority;

    /**
     * A rule.
     *
     * @param id        the service's id; 0 before it assigned one
     * @param deviceId  device
     * @param direction direction
     * @param filter    UE-side 5-tuple
     * @param action    allow or deny
     * @param priority  1-65535
     */
    public FirewallRule(long id, DeviceId deviceId, UpfDirection direction, UpfFilter filter,
                        Action action, long priority) {
        this.id = id;
        this.deviceId = Objects.requireNonNull(deviceId);
        this.direction = Objects.requireNonNull(direction);
        this.filter = Objects.requireNonNull(filter);
        this.action = Objects.requireNonNull(action);
        this.priority = UpfApplication.checkPriority(priority);
    }

    /**
     * The same rule with an id.
     *
     * @param newId id
     * @return rule
     */
    public FirewallRule withId(long newId) {
        return new FirewallRule(newId, deviceId, direction, filter, action, priority);
    }

    /**
     * The service's id.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The direction.
     *
     * @return direction
     */
    public UpfDirection direction() {
        return direction;
    }

    /**
     * The UE-side 5-tuple.
     *
     * @return filter
     */
    public UpfFilter filter() {
        return filter;
    }

    /**
     * Allow or deny.
     *
     * @return action
     */
    public Action action() {
        return action;
    }

    /**
     * Priority.
     *
     * @return 1-65535
     */
    public int priority() {
        return priority;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FirewallRule)) {
            return false;
        }
        FirewallRule r = (FirewallRule) o;
        return id == r.id && priority == r.priority && deviceId.equals(r.deviceId)
                && direction == r.direction && filter.equals(r.filter) && action == r.action;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, deviceId, direction, filter, action, priority);
    }

    @Override
    public String toString() {
        return "firewall rule " + id + " " + deviceId + " " + direction + " " + action + " ("
                + filter + ") priority " + priority;
    }
}
