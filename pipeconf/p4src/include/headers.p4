// SPDX-License-Identifier: Apache-2.0
// Headers and metadata of the FlowBuf program.
#ifndef FLOWBUF_HEADERS_P4
#define FLOWBUF_HEADERS_P4

#include "defines.p4"

// Packets the switch sends to the controller. Byte-aligned so that every
// P4Runtime client can read it without bit arithmetic.
@controller_header("packet_in")
header packet_in_t {
    port_num_t ingress_port;
    bit<7>     _pad;
}

// Packets the controller sends out of a given port.
@controller_header("packet_out")
header packet_out_t {
    port_num_t egress_port;
    bit<7>     _pad;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

header tcp_t {
    l4_port_t src_port;
    l4_port_t dst_port;
    bit<32>   seq_no;
    bit<32>   ack_no;
    bit<4>    data_offset;
    bit<3>    res;
    bit<3>    ecn;
    bit<6>    ctrl;
    bit<16>   window;
    bit<16>   checksum;
    bit<16>   urgent_ptr;
}

header udp_t {
    l4_port_t src_port;
    l4_port_t dst_port;
    bit<16>   len;
    bit<16>   checksum;
}

header icmp_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

struct parsed_headers_t {
    packet_out_t packet_out;
    packet_in_t  packet_in;
    ethernet_t   ethernet;
    vlan_t       vlan;
    ipv4_t       ipv4;
    ipv6_t       ipv6;
    tcp_t        tcp;
    udp_t        udp;
    icmp_t       icmp;
}

struct local_metadata_t {
    // L4 ports of TCP or UDP, zero otherwise; what the 5-tuple tables match.
    l4_port_t  l4_src_port;
    l4_port_t  l4_dst_port;
    // IP protocol of IPv4 or next header of IPv6.
    bit<8>     ip_proto;
    // 1 for packets replayed by a buffer (they arrive on a vport port):
    // steering tells a replay (resume: towards any port) from the flow as
    // it arrives (pause: into a vport), so a replay never re-enters a buffer
    // by the rule that paused it.
    bit<1>     from_vport;
    // Set when steering or forwarding chose where the packet goes.
    bool       forwarded;
    // Ingress port carried into a clone to the controller.
    @field_list(CLONE_FL_CPU)
    port_num_t cpu_ingress_port;
}

#endif
