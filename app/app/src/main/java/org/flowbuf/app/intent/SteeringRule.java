/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import com.google.common.base.MoreObjects;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the P4 table IngressPipeImpl.steering.flow_steering: packets
 * matching the filter, coming from a vport or not, on an optional ingress
 * port, go to a switch port (a vport to pause, any port to resume).
 */
public final class SteeringRule {

    private final FlowFilter filter;
    private final boolean fromVport;
    private final Long ingressPort;
    private final long outPort;
    private final int priority;

    /**
     * Creates a rule.
     *
     * @param filter      IPv4 5-tuple to match (its in-port is ignored)
     * @param fromVport   match packets replayed by a buffer (true) or not
     * @param ingressPort ingress port to match, null for any
     * @param outPort     switch port the packets go to
     * @param priority    higher wins among overlapping rules
     */
    public SteeringRule(FlowFilter filter, boolean fromVport, Long ingressPort, long outPort,
                        int priority) {
        this.filter = Objects.requireNonNull(filter);
        this.fromVport = fromVport;
        this.ingressPort = ingressPort;
        this.outPort = outPort;
        this.priority = priority;
    }

    /**
     * Refuses a port a flow cannot arrive on or be sent to (the controller,
     * flood, any logical port, or none): rules name physical ports.
     *
     * @param port the port
     * @param name what the port is, for the message
     * @throws FlowBufException INVALID when it is not a physical port
     */
    public static void requirePhysical(PortNumber port, String name) {
        if (port == null || port.isLogical() || port.toLong() <= 0) {
            throw FlowBufException.invalid("%s must be a physical port number, got %s", name, port);
        }
    }

    /**
     * The 5-tuple.
     *
     * @return filter
     */
    public FlowFilter filter() {
        return filter;
    }

    /**
     * Whether the rule matches packets replayed by a buffer.
     *
     * @return from_vport match value
     */
    public boolean fromVport() {
        return fromVport;
    }

    /**
     * Ingress port to match.
     *
     * @return port, empty for any
     */
    public Optional<Long> ingressPort() {
        return Optional.ofNullable(ingressPort);
    }

    /**
     * Where matching packets go.
     *
     * @return switch port
     */
    public long outPort() {
        return outPort;
    }

    /**
     * Priority.
     *
     * @return priority
     */
    public int priority() {
        return priority;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SteeringRule)) {
            return false;
        }
        SteeringRule r = (SteeringRule) o;
        return filter.equals(r.filter) && fromVport == r.fromVport
                && Objects.equals(ingressPort, r.ingressPort) && outPort == r.outPort
                && priority == r.priority;
    }

    @Override
    public int hashCode() {
        return Objects.hash(filter, fromVport, ingressPort, outPort, priority);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("filter", filter).add("fromVport", fromVport)
                .add("ingressPort", ingressPort).add("outPort", outPort)
                .add("priority", priority).toString();
    }
}
