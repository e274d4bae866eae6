/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPacketMetadataId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of the FlowBuf P4 program that the app, the interpreter and the
 * pipeliner write, as they appear in pipeconf/p4src/build/p4info.txt.
 * FlowBufP4NamesTest checks them against that p4info, so a renamed table
 * fails the build.
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
    /**
     * Sends the packet into one logical vport of a shared vport port: egress
     * pushes the buffer tag header (ethertype 0x88b5, 32-bit tag, original
     * ethertype; include/steering.p4). Parameters PORT and TAG.
     */
    public static final PiActionId STEER_TO_BUFFER =
            PiActionId.of("IngressPipeImpl.steering.steer_to_buffer");
    /** Parameter of STEER_TO_BUFFER: the logical vport's tag, never 0. */
    public static final PiActionParamId TAG = PiActionParamId.of("tag");
    /** Width of TAG (buffer_tag_t in include/defines.p4). */
    public static final int TAG_BITS = 32;
    /** Rules flow_steering holds (FLOW_STEERING_SIZE in include/defines.p4). */
    public static final int FLOW_STEERING_SIZE = 65536;
    /**
     * Sends the packet to a multicast group of the packet replication engine
     * (FMM: the anchor multicasts a flow to several eNB switches); parameter
     * GROUP_ID.
     */
    public static final PiActionId STEER_TO_MCAST_GROUP =
            PiActionId.of("IngressPipeImpl.steering.steer_to_mcast_group");

    /** Table that marks packets arriving on vport ports as replays (from_vport = 1). */
    public static final PiTableId VPORT_PORTS =
            PiTableId.of("IngressPipeImpl.steering.vport_ports");
    /** Action of VPORT_PORTS. */
    public static final PiActionId MARK_FROM_VPORT =
            PiActionId.of("IngressPipeImpl.steering.mark_from_vport");
    /** L2 forwarding by destination MAC (used by the embedded host for netcfg hosts). */
    public static final PiTableId L2_EXACT = PiTableId.of("IngressPipeImpl.forwarding.l2_exact");
    /** Destination MAC (L2 forwarding and ACL). */
    public static final PiMatchFieldId ETH_DST = PiMatchFieldId.of("eth_dst");
    /** Sends the packet to one port; parameter PORT. */
    public static final PiActionId SET_EGRESS_PORT =
            PiActionId.of("IngressPipeImpl.forwarding.set_egress_port");

    /** ACL: punt, copy to the controller, or drop (ternary on L2-L4 fields). */
    public static final PiTableId ACL = PiTableId.of("IngressPipeImpl.acl.acl_table");
    /** ACL action: send to the controller instead of forwarding. */
    public static final PiActionId PUNT_TO_CPU = PiActionId.of("IngressPipeImpl.acl.punt_to_cpu");
    /** ACL action: forward and send a copy to the controller. */
    public static final PiActionId COPY_TO_CPU = PiActionId.of("IngressPipeImpl.acl.copy_to_cpu");
    /** ACL action: drop. */
    public static final PiActionId ACL_DROP = PiActionId.of("IngressPipeImpl.acl.drop");
    /** Source MAC. */
    public static final PiMatchFieldId ETH_SRC = PiMatchFieldId.of("eth_src");
    /** EtherType. */
    public static final PiMatchFieldId ETH_TYPE = PiMatchFieldId.of("eth_type");
    /** IPv4 routing by longest prefix. */
    public static final PiTableId ROUTING_V4 = PiTableId.of("IngressPipeImpl.forwarding.routing_v4");
    /** Multicast group action of the forwarding tables; parameter GROUP_ID. */
    public static final PiActionId SET_MCAST_GROUP =
            PiActionId.of("IngressPipeImpl.forwarding.set_mcast_group");
    /** Parameter of SET_MCAST_GROUP. */
    public static final PiActionParamId GROUP_ID = PiActionParamId.of("group_id");
    /** Forwarding drop. */
    public static final PiActionId FORWARDING_DROP =
            PiActionId.of("IngressPipeImpl.forwarding.drop");
    /** Packet-in metadata: the port the packet came in on. */
    public static final PiPacketMetadataId PACKET_IN_INGRESS_PORT =
            PiPacketMetadataId.of("ingress_port");
    /** Packet-out metadata: the port to send the packet out of. */
    public static final PiPacketMetadataId PACKET_OUT_EGRESS_PORT =
            PiPacketMetadataId.of("egress_port");
    /** The port that stands for the controller (CPU_PORT in defines.p4). */
    public static final int CPU_PORT = 255;
    /** The clone session of copies to the controller (CPU_CLONE_SESSION_ID in defines.p4). */
    public static final int CPU_CLONE_SESSION_ID = 99;

    /** Width of port match fields and parameters (v1model standard_metadata). */
    public static final int PORT_BITS = 9;
    /** Width of multicast group ids (mcast_group_id_t, standard_metadata.mcast_grp). */
    public static final int MCAST_GROUP_BITS = 16;

    private FlowBufP4Names() {
    }
}
