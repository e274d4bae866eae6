/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of the FlowBuf P4 program that the app writes, as they appear in
 * pipeconf/p4src/build/p4info.txt (control IngressPipeImpl.steering, file
 * pipeconf/p4src/include/steering.p4). FlowBufP4NamesTest checks every name
 * against that p4info, so a renamed table fails the build.
 */
public final class FlowBufP4Names {

    /** Table that pauses flows into vports and resumes them from vports. */
    public static final PiTableId FLOW_STEERING =
            PiTableId.of("IngressPipeImpl.steering.flow_steering");
    /** 1 for packets a buffer replays through its TX vport. */
    public static final PiMatchFieldId FROM_VPORT = PiMatchFieldId.of("from_vport");
    /** Switch port the packet came in on. */
    public static final PiMatchFieldId INGRESS_PORT = PiMatchFieldId.of("ingress_port");
    /** IPv4 source address. */
    public static final PiMatchFieldId IPV4_SRC = PiMatchFieldId.of("ipv4_src");
    /** IPv4 destination address. */
    public static final PiMatchFieldId IPV4_DST = PiMatchFieldId.of("ipv4_dst");
    /** IPv4 protocol. */
    public static final PiMatchFieldId IP_PROTO = PiMatchFieldId.of("ip_proto");
    /** TCP/UDP source port. */
    public static final PiMatchFieldId L4_SRC_PORT = PiMatchFieldId.of("l4_src_port");
    /** TCP/UDP destination port. */
    public static final PiMatchFieldId L4_DST_PORT = PiMatchFieldId.of("l4_dst_port");
    /** Sends the packet to one switch port (a vport or a resume port). */
    public static final PiActionId STEER_TO_PORT =
            PiActionId.of("IngressPipeImpl.steering.steer_to_port");
    /** Parameter of STEER_TO_PORT. */
    public static final PiActionParamId PORT = PiActionParamId.of("port");

    /** Table that marks packets arriving on vport ports as replays (from_vport = 1). */
    public static final PiTableId VPORT_PORTS =
            PiTableId.of("IngressPipeImpl.steering.vport_ports");
    /** Action of VPORT_PORTS. */
    public static final PiActionId MARK_FROM_VPORT =
            PiActionId.of("IngressPipeImpl.steering.mark_from_vport");
    /** L2 forwarding by destination MAC (used by the embedded host for netcfg hosts). */
    public static final PiTableId L2_EXACT = PiTableId.of("IngressPipeImpl.forwarding.l2_exact");
    /** Destination MAC. */
    public static final PiMatchFieldId ETH_DST = PiMatchFieldId.of("eth_dst");
    /** Sends the packet to one port; parameter PORT. */
    public static final PiActionId SET_EGRESS_PORT =
            PiActionId.of("IngressPipeImpl.forwarding.set_egress_port");

    /** Width of port match fields and parameters (v1model standard_metadata). */
    public static final int PORT_BITS = 9;

    private FlowBufP4Names() {
    }
}
