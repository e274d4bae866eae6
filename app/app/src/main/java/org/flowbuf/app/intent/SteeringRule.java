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
 * port, go to a switch port (a vport to pause, any port to resume) or, for
 * fast mobility management, to a multicast group of the switch's packet
 * replication engine (the anchor sends a UE's downlink to several eNB
 * switches at once; see {@link MulticastGroupWriter}).
 */
public final class SteeringRule {

    /** Smallest multicast group id (0 means no group in v1model). */
    public static final int MIN_MULTICAST_GROUP = 1;
    /** Largest multicast group id (mcast_group_id_t is 16 bits wide). */
    public static final int MAX_MULTICAST_GROUP = 65535;
    /** Largest buffer tag (buffer_tag_t is 32 bits wide; 0 means untagged). */
    public static final long MAX_TAG = (1L << 32) - 1;

    private final FlowFilter filter;
    private final boolean fromVport;
    private final Long ingressPort;
    private final long outPort;
    private final Integer multicastGroup;
    private final long tag;
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
        this(filter, fromVport, ingressPort, outPort, null, 0, priority);
    }

    private SteeringRule(FlowFilter filter, boolean fromVport, Long ingressPort, long outPort,
                         Integer multicastGroup, long tag, int priority) {
        this.filter = Objects.requireNonNull(filter);
        this.fromVport = fromVport;
        this.ingressPort = ingressPort;
        this.outPort = outPort;
        this.multicastGroup = multicastGroup;
        this.tag = tag;
        this.priority = priority;
    }

    /**
     * Creates a rule that sends the matching packets (not replayed by a
     * buffer) into a logical vport of a shared vport port: the switch
     * pushes the buffer tag on them (steer_to_buffer).
     *
     * @param filter      IPv4 5-tuple to match (its in-port is ignored)
     * @param ingressPort ingress port to match, null for any
     * @param port        the shared vport port
     * @param tag         the logical vport's tag, 1..2^32-1
     * @param priority    higher wins among overlapping rules
     * @return the rule
     * @throws FlowBufException INVALID when the tag is outside 1..2^32-1
     */
    public static SteeringRule toBuffer(FlowFilter filter, Long ingressPort, long port, long tag,
                                        int priority) {
        if (tag < 1 || tag > MAX_TAG) {
            throw FlowBufException.invalid("buffer tag must be in 1..%d, got %d", MAX_TAG, tag);
        }
        return new SteeringRule(filter, false, ingressPort, port, null, tag, priority);
    }

    /**
     * Creates a rule that sends the matching packets (not replayed by a
     * buffer) to a multicast group, which the switch's packet replication
     * engine copies to each of the group's ports. The group itself is
     * written with a {@link MulticastGroupWriter}.
     *
     * @param filter      IPv4 5-tuple to match (its in-port is ignored)
     * @param ingressPort ingress port to match, null for any
     * @param groupId     multicast group id, 1..65535
     * @param priority    higher wins among overlapping rules
     * @return the rule; its {@link #outPort()} is 0
     * @throws FlowBufException INVALID when the group id is outside 1..65535
     */
    public static SteeringRule toMulticastGroup(FlowFilter filter, Long ingressPort, int groupId,
                                                int priority) {
        requireMulticastGroup(groupId);
        return new SteeringRule(filter, false, ingressPort, 0, groupId, 0, priority);
    }

    /**
     * Refuses a multicast group id the P4 program cannot carry (0 stands for
     * no group in v1model; mcast_group_id_t is 16 bits wide).
     *
     * @param groupId the group id
     * @throws FlowBufException INVALID when it is outside 1..65535
     */
    public static void requireMulticastGroup(int groupId) {
        if (groupId < MIN_MULTICAST_GROUP || groupId > MAX_MULTICAST_GROUP) {
            throw FlowBufException.invalid("multicast group id must be in %d..%d, got %d",
                                           MIN_MULTICAST_GROUP, MAX_MULTICAST_GROUP, groupId);
        }
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
     * Where matching packets go, for a rule that steers to a port.
     *
     * @return switch port; 0 for a rule that steers to a multicast group
     *         (see {@link #multicastGroup()})
     */
    public long outPort() {
        return outPort;
    }

    /**
     * The multicast group matching packets go to, for a rule made by
     * {@link #toMulticastGroup}.
     *
     * @return group id, empty for a rule that steers to a port
     */
    public Optional<Integer> multicastGroup() {
        return Optional.ofNullable(multicastGroup);
    }

    /**
     * The buffer tag the switch pushes, for a rule made by {@link #toBuffer}.
     *
     * @return tag, 0 for a rule that pushes none
     */
    public long tag() {
        return tag;
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
                && Objects.equals(multicastGroup, r.multicastGroup) && tag == r.tag
                && priority == r.priority;
    }

    @Override
    public int hashCode() {
        return Objects.hash(filter, fromVport, ingressPort, outPort, multicastGroup, tag, priority);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("filter", filter).add("fromVport", fromVport)
                .add("ingressPort", ingressPort).add("outPort", outPort)
                .add("multicastGroup", multicastGroup).add("tag", tag).add("priority", priority).toString();
    }
}
