/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.flowbuf.pipeconf.FlowBufP4Names.FLOW_STEERING;
import static org.flowbuf.pipeconf.FlowBufP4Names.FROM_VPORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.GROUP_ID;
import static org.flowbuf.pipeconf.FlowBufP4Names.INGRESS_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.IPV4_DST;
import static org.flowbuf.pipeconf.FlowBufP4Names.IPV4_SRC;
import static org.flowbuf.pipeconf.FlowBufP4Names.IP_PROTO;
import static org.flowbuf.pipeconf.FlowBufP4Names.L4_DST_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.L4_SRC_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.MARK_FROM_VPORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PORT_BITS;
import static org.flowbuf.pipeconf.FlowBufP4Names.STEER_TO_MCAST_GROUP;
import static org.flowbuf.pipeconf.FlowBufP4Names.STEER_TO_BUFFER;
import static org.flowbuf.pipeconf.FlowBufP4Names.STEER_TO_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.TAG;
import static org.flowbuf.pipeconf.FlowBufP4Names.VPORT_PORTS;

/**
 * Translates a steering rule into an ONOS PI flow rule of the flow_steering
 * table: steer_to_port for a rule with an out port, steer_to_mcast_group
 * for a rule with a multicast group. Every value is given as a long, so equal rules give byte-equal
 * matches (ONOS fits them to the p4info bit widths when it writes them).
 * Pure: the same rule always gives an equal flow rule, so removing a
 * rule rebuilds exactly the entry that was installed.
 */
public final class SteeringFlowRules {

    private static final long PORT_MASK = (1L << PORT_BITS) - 1;

    private SteeringFlowRules() {
    }

    /**
     * The PI flow rule of a steering rule.
     *
     * @param appId    owner of the flow rule
     * @param deviceId device
     * @param rule     steering rule
     * @return flow rule
     * @throws FlowBufException INVALID when a port does not fit the P4 port width
     */
    public static FlowRule toFlowRule(ApplicationId appId, DeviceId deviceId, SteeringRule rule) {
        PiCriterion.Builder match = PiCriterion.builder()
                .matchTernary(FROM_VPORT, rule.fromVport() ? 1L : 0L, 1L);
        rule.ingressPort().ifPresent(p -> match.matchTernary(INGRESS_PORT, checkPort(p), PORT_MASK));
        FlowFilter f = rule.filter();
        f.ipv4Src().ifPresent(prefix -> matchPrefix(match, IPV4_SRC, prefix));
        f.ipv4Dst().ifPresent(prefix -> matchPrefix(match, IPV4_DST, prefix));
        f.ipProto().ifPresent(proto -> match.matchTernary(IP_PROTO, (long) proto, 0xffL));
        f.l4SrcPort().ifPresent(port -> match.matchTernary(L4_SRC_PORT, (long) port, 0xffffL));
        f.l4DstPort().ifPresent(port -> match.matchTernary(L4_DST_PORT, (long) port, 0xffffL));
        PiAction action = rule.multicastGroup()
                .map(group -> PiAction.builder().withId(STEER_TO_MCAST_GROUP)
                        .withParameter(new PiActionParam(GROUP_ID, checkGroup(group))).build())
                .orElseGet(() -> portAction(rule));
        return DefaultFlowRule.builder()
                .forDevice(deviceId)
                .forTable(FLOW_STEERING)
                .fromApp(appId)
                .withPriority(rule.priority())
                .makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match.build()).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }

    // steer_to_buffer for a rule into a logical vport, steer_to_port otherwise.
    private static PiAction portAction(SteeringRule rule) {
        PiAction.Builder action = PiAction.builder()
                .withId(rule.tag() == 0 ? STEER_TO_PORT : STEER_TO_BUFFER)
                .withParameter(new PiActionParam(PORT, checkPort(rule.outPort())));
        if (rule.tag() != 0) {
            action.withParameter(new PiActionParam(TAG, rule.tag()));
        }
        return action.build();
    }

    /**
     * Checks a multicast group for a device write and gives its ports as
     * the P4 program's port numbers, in the order given. Every writer of
     * multicast groups checks through here, so ONOS and the embedded host
     * refuse the same groups.
     *
     * @param groupId multicast group id
     * @param ports   the group's ports
     * @return the port numbers
     * @throws FlowBufException INVALID for a group id outside 1..65535, no
     *                          ports, a repeated port, or a port that is not
     *                          physical or does not fit the P4 port width
     */
    public static List<Long> multicastPorts(int groupId, List<PortNumber> ports) {
        SteeringRule.requireMulticastGroup(groupId);
        if (ports == null || ports.isEmpty()) {
            throw FlowBufException.invalid("multicast group %d needs at least one port", groupId);
        }
        List<Long> numbers = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (PortNumber port : ports) {
            SteeringRule.requirePhysical(port, "multicast group " + groupId + " port");
            long number = checkPort(port.toLong());
            if (!seen.add(number)) {
                throw FlowBufException.invalid("multicast group %d lists port %d twice", groupId,
                                               number);
            }
            numbers.add(number);
        }
        return numbers;
    }

    /**
     * The rule that marks packets arriving on a vport port as replays, so
     * that resume rules (from_vport = 1) can tell them from the paused flow.
     *
     * @param appId      owner of the flow rule
     * @param deviceId   device
     * @param switchPort the vport's switch port
     * @return flow rule of IngressPipeImpl.steering.vport_ports
     */
    public static FlowRule vportPortRule(ApplicationId appId, DeviceId deviceId, long switchPort) {
        PiCriterion match = PiCriterion.builder()
                .matchExact(INGRESS_PORT, checkPort(switchPort)).build();
        PiAction action = PiAction.builder().withId(MARK_FROM_VPORT).build();
        return DefaultFlowRule.builder()
                .forDevice(deviceId)
                .forTable(VPORT_PORTS)
                .fromApp(appId)
                .withPriority(FlowRule.MIN_PRIORITY)
                .makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }

    private static void matchPrefix(PiCriterion.Builder match,
                                    PiMatchFieldId field,
                                    IpPrefix prefix) {
        int length = prefix.prefixLength();
        long mask = length == 0 ? 0 : (0xffffffffL << (32 - length)) & 0xffffffffL;
        match.matchTernary(field, prefix.address().getIp4Address().toInt() & 0xffffffffL, mask);
    }

    private static long checkGroup(int group) {
        SteeringRule.requireMulticastGroup(group);
        return group;
    }

    private static long checkPort(long port) {
        if (port < 0 || port > PORT_MASK) {
            throw FlowBufException.invalid("port %d does not fit the %d-bit P4 port", port,
                                           PORT_BITS);
        }
        return port;
    }
}
