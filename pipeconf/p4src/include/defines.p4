// SPDX-License-Identifier: Apache-2.0
// Constants and types shared by every block of the FlowBuf program.
#ifndef FLOWBUF_DEFINES_P4
#define FLOWBUF_DEFINES_P4

typedef bit<9>   port_num_t;
typedef bit<48>  mac_addr_t;
typedef bit<32>  ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<16>  l4_port_t;
typedef bit<16>  mcast_group_id_t;

// The controller's port (the P4Runtime stream), as Stratum bmv2 and pbswitch
// configure it (--cpu-port 255).
const port_num_t CPU_PORT = 255;
// Clone session that copies packets to the controller (ACL copy_to_cpu).
const bit<32> CPU_CLONE_SESSION_ID = 99;
// Field list that clone_preserving_field_list carries into the clone.
const bit<8> CLONE_FL_CPU = 1;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_IPV6 = 0x86dd;
const bit<16> ETHERTYPE_VLAN = 0x8100;
const bit<16> ETHERTYPE_ARP  = 0x0806;

const bit<8> IP_PROTO_ICMP   = 1;
const bit<8> IP_PROTO_TCP    = 6;
const bit<8> IP_PROTO_UDP    = 17;
const bit<8> IP_PROTO_ICMPV6 = 58;

// GTP-U (3GPP TS 29.281); the UPF block parses it.
const l4_port_t UDP_PORT_GTPU = 2152;

const bit<8> DEFAULT_IPV4_TTL = 64;

#endif
