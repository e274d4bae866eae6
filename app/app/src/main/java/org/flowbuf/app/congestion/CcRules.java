/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcThresholds;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import static org.flowbuf.pipeconf.CcP4Names.ALTERNATE;
import static org.flowbuf.pipeconf.CcP4Names.ALTERNATES;
import static org.flowbuf.pipeconf.CcP4Names.CHECK_OUT_PORT;
import static org.flowbuf.pipeconf.CcP4Names.DMAC;
import static org.flowbuf.pipeconf.CcP4Names.FLOW;
import static org.flowbuf.pipeconf.CcP4Names.FLOWS;
import static org.flowbuf.pipeconf.CcP4Names.FORWARD;
import static org.flowbuf.pipeconf.CcP4Names.GENERATION;
import static org.flowbuf.pipeconf.CcP4Names.ID;
import static org.flowbuf.pipeconf.CcP4Names.KEY_FLOW;
import static org.flowbuf.pipeconf.CcP4Names.KEY_IPV4_DST;
import static org.flowbuf.pipeconf.CcP4Names.KEY_IPV4_SRC;
import static org.flowbuf.pipeconf.CcP4Names.KEY_IP_PROTO;
import static org.flowbuf.pipeconf.CcP4Names.KEY_L4_DST_PORT;
import static org.flowbuf.pipeconf.CcP4Names.KEY_L4_SRC_PORT;
import static org.flowbuf.pipeconf.CcP4Names.KEY_SLOT;
import static org.flowbuf.pipeconf.CcP4Names.LIMITS;
import static org.flowbuf.pipeconf.CcP4Names.M;
import static org.flowbuf.pipeconf.CcP4Names.MARKER_SINKS;
import static org.flowbuf.pipeconf.CcP4Names.ORDERED;
import static org.flowbuf.pipeconf.CcP4Names.PATHS;
import static org.flowbuf.pipeconf.CcP4Names.PORT;
import static org.flowbuf.pipeconf.CcP4Names.PROC_US;
import static org.flowbuf.pipeconf.CcP4Names.QUEUE_US;
import static org.flowbuf.pipeconf.CcP4Names.REPORT;
import static org.flowbuf.pipeconf.CcP4Names.SET_SWITCH_ID;
import static org.flowbuf.pipeconf.CcP4Names.SWITCH;
import static org.flowbuf.pipeconf.CcP4Names.TAG;
import static org.flowbuf.pipeconf.CcP4Names.THRESHOLDS;
import static org.flowbuf.pipeconf.CcP4Names.TO_SINK;
import static org.flowbuf.pipeconf.CcP4Names.TRACK;
import static org.flowbuf.pipeconf.FlowBufP4Names.ACL;
import static org.flowbuf.pipeconf.FlowBufP4Names.ETH_SRC;
import static org.flowbuf.pipeconf.FlowBufP4Names.PUNT_TO_CPU;

/**
 * The PI flow rules of congestion.p4 for one flow on one switch.
 */
public final class CcRules {

    /** The P4 port width (port_num_t is bit&lt;9&gt;). */
    static final long MAX_PORT = 511;
    /** cc_flows is ternary: one priority for every latency-critical flow. */
    static final int FLOW_PRIORITY = 10;
    /** The probe punt's ACL priority: above any ACL entry that would forward the flow. */
    static final int PROBE_PUNT_PRIORITY = 40_000;

    private final ApplicationId appId;

    /**
     * Creates a rule builder.
     *
     * @param appId owner of the rules
     */
    public CcRules(ApplicationId appId) {
        this.appId = appId;
    }

    /**
     * cc_flows: the flow's packets are flow {@code index}, of a
     * registration whose register cells are {@code generation}'s.
     *
     * @param device     switch
     * @param filter     the 5-tuple (an absent part matches anything)
     * @param index      flow index
     * @param generation the registration (see {@link CcLayout#generation()})
     * @return rule
     */
    public FlowRule track(DeviceId device, FlowFilter filter, int index, long generation) {
        PiCriterion.Builder match = PiCriterion.builder();
        filter.ipv4Src().ifPresent(p -> prefix(match, KEY_IPV4_SRC, p));
        filter.ipv4Dst().ifPresent(p -> prefix(match, KEY_IPV4_DST, p));
        filter.ipProto().ifPresent(p -> match.matchTernary(KEY_IP_PROTO, (long) p, 0xffL));
        filter.l4SrcPort().ifPresent(p -> match.matchTernary(KEY_L4_SRC_PORT, (long) p, 0xffffL));
        filter.l4DstPort().ifPresent(p -> match.matchTernary(KEY_L4_DST_PORT, (long) p, 0xffffL));
        PiAction action = PiAction.builder().withId(TRACK)
                .withParameter(new PiActionParam(FLOW, (long) index))
                .withParameter(new PiActionParam(GENERATION, generation)).build();
        return rule(device, FLOWS, match.build(), action, FLOW_PRIORITY);
    }

    /**
     * cc_paths: in slot {@code slot}, the flow leaves by a port towards a MAC.
     *
     * @param device switch
     * @param index  flow index
     * @param slot   0 or 1
     * @param port   out port
     * @param dmac   destination MAC written into the packet
     * @return rule
     */
    public FlowRule path(DeviceId device, int index, int slot, PortNumber port, MacAddress dmac) {
        if (port.toLong() < 0 || port.toLong() > MAX_PORT) {
            throw FlowBufException.invalid("port %s of %s does not fit the 9-bit P4 port", port,
                                           device);
        }
        PiAction action = PiAction.builder().withId(FORWARD)
                .withParameter(new PiActionParam(PORT, port.toLong()))
                .withParameter(new PiActionParam(DMAC, dmac.toBytes())).build();
        return rule(device, PATHS, slotKey(index, slot), action, 0);
    }

    /**
     * cc_alternates: slot {@code slot} holds a path (the switch may move the flow there).
     *
     * @param device switch
     * @param index  flow index
     * @param slot   0 or 1
     * @return rule
     */
    public FlowRule alternate(DeviceId device, int index, int slot) {
        return rule(device, ALTERNATES, slotKey(index, slot),
                    PiAction.builder().withId(ALTERNATE).build(), 0);
    }

    /**
     * cc_ordered: the flow's switch-overs here send an end marker down the
     * port it left.
     *
     * @param device switch
     * @param index  flow index
     * @return rule
     */
    public FlowRule ordered(DeviceId device, int index) {
        return rule(device, ORDERED,
                    PiCriterion.builder().matchExact(KEY_FLOW, (long) index).build(),
                    PiAction.builder().withId(CHECK_OUT_PORT).build(), 0);
    }

    /**
     * cc_marker_sinks: the merge switch steers the flow's end markers into a
     * (logical) vport.
     *
     * @param device switch
     * @param index  flow index
     * @param sink   the vport's switch port and tag
     * @return rule
     */
    public FlowRule markerSink(DeviceId device, int index, CcSink sink) {
        PiAction action = PiAction.builder().withId(TO_SINK)
                .withParameter(new PiActionParam(PORT, sink.port()))
                .withParameter(new PiActionParam(TAG, sink.tag())).build();
        return rule(device, MARKER_SINKS,
                    PiCriterion.builder().matchExact(KEY_FLOW, (long) index).build(), action, 0);
    }

    /**
     * cc_thresholds: the flow's limits on this switch.
     *
     * @param device switch
     * @param index  flow index
     * @param t      thresholds
     * @return rule
     */
    public FlowRule thresholds(DeviceId device, int index, CcThresholds t) {
        PiAction action = PiAction.builder().withId(LIMITS)
                .withParameter(new PiActionParam(QUEUE_US, t.queueUs()))
                .withParameter(new PiActionParam(PROC_US, t.procUs()))
                .withParameter(new PiActionParam(M, t.m())).build();
        return rule(device, THRESHOLDS,
                    PiCriterion.builder().matchExact(KEY_FLOW, (long) index).build(), action, 0);
    }

    /**
     * cc_switch's default action: the switch id that digests and
     * notifications carry, and whether switch-overs also come to the
     * controller as packet-ins (where it takes no digests), as a rule with
     * no match, as ONOS writes a default action.
     *
     * @param device switch
     * @param id     its id, 0..65535 (bit&lt;16&gt;)
     * @param report whether to send switch-over reports by packet-in
     * @return rule
     */
    public FlowRule switchId(DeviceId device, int id, boolean report) {
        if (id < 0 || id > 0xffff) {
            throw new IllegalArgumentException("a switch id is 0..65535, not " + id);
        }
        PiAction action = PiAction.builder().withId(SET_SWITCH_ID)
                .withParameter(new PiActionParam(ID, (long) id))
                .withParameter(new PiActionParam(REPORT, report ? 1L : 0L)).build();
        return DefaultFlowRule.builder().forDevice(device).forTable(SWITCH).fromApp(appId)
                .withPriority(0).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }

    /**
     * acl_table at the flow's far-end switch: its probes (their source MAC
     * names the flow, {@link ProbeFrames#mac}) go to the controller, not to
     * the host. The flow's own packets, on the same 5-tuple, are not matched.
     *
     * @param device the destination switch
     * @param index  flow index
     * @return rule
     */
    public FlowRule probePunt(DeviceId device, int index) {
        PiCriterion match = PiCriterion.builder()
                .matchTernary(ETH_SRC, ProbeFrames.mac(index).toBytes(),
                              new byte[]{-1, -1, -1, -1, -1, -1}).build();
        return rule(device, ACL, match, PiAction.builder().withId(PUNT_TO_CPU).build(),
                    PROBE_PUNT_PRIORITY);
    }

    private static PiCriterion slotKey(int index, int slot) {
        return PiCriterion.builder().matchExact(KEY_FLOW, (long) index)
                .matchExact(KEY_SLOT, (long) slot).build();
    }

    private FlowRule rule(DeviceId device, PiTableId table, PiCriterion match, PiAction action,
                          int priority) {
        return DefaultFlowRule.builder().forDevice(device).forTable(table).fromApp(appId)
                .withPriority(priority).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }

    private static void prefix(PiCriterion.Builder match, PiMatchFieldId field, IpPrefix p) {
        int length = p.prefixLength();
        long mask = length == 0 ? 0 : (0xffffffffL << (32 - length)) & 0xffffffffL;
        match.matchTernary(field, p.address().getIp4Address().toInt() & 0xffffffffL, mask);
    }
}
