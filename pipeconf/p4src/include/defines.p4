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
// A frame sent into a shared vport: Ethernet with this ethertype (the other
// IEEE local experimental one; congestion notification has 0x88b6), then
// buffer_tag_t: the 32-bit tag of the logical vport (its buffer) and the
// original ethertype. The buffer agent strips it before storing the frame.
const bit<16> ETHERTYPE_BUFFER_TAG = 0x88b5;
typedef bit<32> buffer_tag_t;

const bit<8> IP_PROTO_ICMP   = 1;
const bit<8> IP_PROTO_TCP    = 6;
const bit<8> IP_PROTO_UDP    = 17;
const bit<8> IP_PROTO_ICMPV6 = 58;

// GTP-U (3GPP TS 29.281); the UPF block parses it.
const l4_port_t UDP_PORT_GTPU = 2152;
const bit<3> GTP_V1 = 1;
const bit<1> GTP_PROTOCOL_TYPE_GTP = 1;
const bit<8> GTPU_GPDU = 0xff;           // message type of a user-plane packet
const bit<8> GTPU_NEXT_EXT_NONE = 0x00;
const bit<8> GTPU_NEXT_EXT_PSC = 0x85;   // PDU Session Container (TS 38.415)
const bit<8> GTPU_PSC_LEN_WORDS = 1;     // a container without optional fields
const bit<4> GTPU_PSC_TYPE_DL = 0;       // DL PDU SESSION INFORMATION
const bit<4> GTPU_PSC_TYPE_UL = 1;       // UL PDU SESSION INFORMATION

// Header sizes in bytes, for the lengths GTP-U encapsulation writes.
const bit<32> ETH_HDR_BYTES = 14;
// packet_in_t before a packet-in's Ethernet header.
const bit<32> PACKET_IN_HDR_BYTES = 2;
const bit<16> IPV4_HDR_BYTES = 20;
const bit<16> UDP_HDR_BYTES = 8;
const bit<16> GTPU_HDR_BYTES = 8;
const bit<16> GTPU_OPTIONS_BYTES = 4;
const bit<16> GTPU_PSC_BYTES = 4;

// Rules of the flow_steering table: a device pauses thousands of flows at
// once (one rule each, plus the rules of the flows being resumed).
#ifndef FLOW_STEERING_SIZE
#define FLOW_STEERING_SIZE 65536
#endif

// ---- UPF (include/upf.p4, include/firewall.p4) ----
typedef bit<32> teid_t;
typedef bit<6>  qfi_t;
typedef bit<8>  app_id_t;
typedef bit<16> tunnel_peer_id_t;
// A cell of the UPF's counter and meter arrays. The arrays have 2^16 cells,
// so no index an entry carries can be out of range.
typedef bit<16> upf_index_t;
#define UPF_INDEX_CELLS 65536

// Which side of the UPF a packet came from; set by the interfaces table.
typedef bit<2> upf_direction_t;
const upf_direction_t UPF_DIR_NONE = 0;      // not UPF traffic: the rest of the pipeline as before
const upf_direction_t UPF_DIR_UPLINK = 1;    // GTP-U from a gNodeB to an N3 address
const upf_direction_t UPF_DIR_DOWNLINK = 2;  // plain IPv4 from the data network to a UE pool

// Packets the applications table classifies as no application in particular.
const app_id_t APP_ID_DEFAULT = 0;

// v1model meter colours (execute_meter's result).
typedef bit<2> meter_color_t;
const meter_color_t METER_GREEN = 0;
const meter_color_t METER_YELLOW = 1;
const meter_color_t METER_RED = 2;

// Cells of the upf_drops counter: every packet the UPF or its firewall drops
// is counted under one of these reasons.
const bit<32> UPF_DROP_MALFORMED_GTPU = 0;     // to an N3 address, UDP 2152, but not a well-formed G-PDU with IPv4 inside
const bit<32> UPF_DROP_UPLINK_SESSION_MISS = 1;    // unknown (N3 address, TEID)
const bit<32> UPF_DROP_DOWNLINK_SESSION_MISS = 2;  // unknown UE address
const bit<32> UPF_DROP_SESSION_DROP = 3;           // the session's action is drop
const bit<32> UPF_DROP_TERMINATION_MISS = 4;       // no termination for (UE, application)
const bit<32> UPF_DROP_TERMINATION_DROP = 5;       // the termination's action is drop
const bit<32> UPF_DROP_TUNNEL_PEER_MISS = 6;       // the session names an unknown tunnel peer
const bit<32> UPF_DROP_SESSION_METER = 7;          // red at the session meter
const bit<32> UPF_DROP_APP_METER = 8;              // red at the application meter
const bit<32> UPF_DROP_FIREWALL = 9;               // denied by the firewall
const bit<32> UPF_DROP_GTPU_TO_UE = 10;            // downlink that is GTP-U itself: no tunnel in a tunnel
const bit<32> UPF_DROP_REASONS = 11;

// Table and extern sizes of the UPF; a profile may compile with others (-D).
#ifndef UPF_MAX_INTERFACES
#define UPF_MAX_INTERFACES 64
#endif
#ifndef UPF_MAX_SESSIONS
#define UPF_MAX_SESSIONS 65536
#endif
#ifndef UPF_MAX_TERMINATIONS
#define UPF_MAX_TERMINATIONS 65536
#endif
#ifndef UPF_MAX_TUNNEL_PEERS
#define UPF_MAX_TUNNEL_PEERS 1024
#endif
#ifndef UPF_MAX_APPLICATIONS
#define UPF_MAX_APPLICATIONS 1024
#endif
#ifndef UPF_MAX_FIREWALL_RULES
#define UPF_MAX_FIREWALL_RULES 1024
#endif

const bit<8> DEFAULT_IPV4_TTL = 64;

// ---- gNodeB (include/gnb.p4) ----
// Radio frames: Ethernet with the buffer tag's ethertype (the IEEE local
// experimental one), told apart by their first byte: RLC_MAGIC ('R'),
// where a buffer tag has 0 and an ARQ status frame 'F' ("FBAK"). Then
// rlc_t, pdcp_t, and the UE's IPv4 packet (data) or the last SN of the
// acknowledged range (status). The same layout as
// buffer-agent/engine/pdcp.go, which the BaaS buffer parses.
const bit<16> ETHERTYPE_RADIO = 0x88b5;
const bit<8>  RLC_MAGIC = 0x52;
const bit<8>  RLC_VERSION = 1;
const bit<1>  PDCP_DC_DATA = 1;
const bit<1>  PDCP_DC_CONTROL = 0;
const bit<32> PDCP_SN_MASK = 0x3ffff;   // 18-bit SNs (NR PDCP)
const bit<16> RLC_PDCP_BYTES = 10;
// A bearer's SN lives in cell sn_index of the pdcp_sn register.
typedef bit<16> gnb_index_t;
#define GNB_SN_CELLS 65536
#ifndef GNB_MAX_BEARERS
#define GNB_MAX_BEARERS 65536
#endif
// A downlink PDU's clone goes to the BaaS buffer's vport port p by clone
// session GNB_BAAS_SESSION_BASE + p, which the controller creates.
const bit<32> GNB_BAAS_SESSION_BASE = 3000;
// What a port of a gNodeB device is (the ports table).
typedef bit<2> gnb_role_t;
const gnb_role_t GNB_ROLE_NONE = 0;
const gnb_role_t GNB_ROLE_UPF = 1;     // N3: GTP-U from and to the UPF
const gnb_role_t GNB_ROLE_RADIO = 2;   // a cell's radio side
const gnb_role_t GNB_ROLE_BAAS = 3;    // a BaaS buffer's vport: its resends
// What a gNodeB packet is, in gnb.p4's apply.
typedef bit<2> gnb_kind_t;
const gnb_kind_t GNB_KIND_DOWNSTREAM = 0;  // GTP-U from the UPF
const gnb_kind_t GNB_KIND_RESEND = 1;      // a BaaS buffer's resend
const gnb_kind_t GNB_KIND_STATUS = 2;      // a PDCP status from a radio port
// Cells of the gnb.drops counter.
const bit<32> GNB_DROP_MALFORMED = 0;          // GTP-U without IPv4 inside, radio frame not of this layout
const bit<32> GNB_DROP_DOWNLINK_BEARER_MISS = 1;  // unknown downlink TEID (GTP-U, resend or status)
const bit<32> GNB_DROP_UPLINK_BEARER_MISS = 2;    // uplink PDCP data of a bearer with no uplink tunnel
const bit<32> GNB_DROP_REASONS = 3;

// ---- FB buffer admission (include/fb.p4) ----
// What mark_to_drop sets egress_spec to (v1model).
const port_num_t DROP_PORT = 511;
// A queue is an (egress port, priority) pair: 2^9 ports x 8 priorities.
#define FB_QUEUE_CELLS 4096
#define FB_PORT_CELLS 512

// ---- congestion avoidance (include/congestion.p4) ----
// A congestion notification, from the switch that found a flow congested
// to the one before it: Ethernet, this ethertype (IEEE local experimental),
// then cc_notify_t.
const bit<16> ETHERTYPE_CC_NOTIFY = 0x88b6;
typedef bit<16> cc_flow_t;
#define CC_FLOWS 1024
// A notification leaves by clone session CC_NOTIFY_SESSION_BASE + the port
// the congested packet came in by (the controller makes one per port).
const bit<32> CC_NOTIFY_SESSION_BASE = 1000;
// An end marker (ordered switch-over): Ethernet, this ethertype, then
// cc_marker_t. The switch that moved an ordered flow sends it down the path
// the flow left, behind that path's last packets; the merge switch steers
// it into the trigger buffer that releases the backup path's held packets.
const bit<16> ETHERTYPE_CC_MARKER = 0x88b7;
// A marker leaves by clone session CC_MARKER_SESSION_BASE + the port the
// flow left (the controller makes one per inter-switch port).
const bit<32> CC_MARKER_SESSION_BASE = 2000;
// Field list that the notification and marker clones carry.
const bit<8> CLONE_FL_CC = 2;
// standard_metadata.instance_type of an ingress-to-egress clone (v1model).
const bit<32> PKT_INSTANCE_TYPE_INGRESS_CLONE = 1;
// standard_metadata.instance_type of an egress-to-egress clone (v1model).
const bit<32> PKT_INSTANCE_TYPE_EGRESS_CLONE = 2;

// ---- heavy-hitter detector (include/hh.p4) ----
// Register cells of the detector's per-UE state, indexed by
// crc32(UE address) mod HH_CELLS (a power of two, as BMv2 and pbswitch
// both compute hash % max).
#ifndef HH_CELLS
#define HH_CELLS 65536
#endif
// The EWMA's weight is 2^-HH_EWMA_SHIFT (1/8, TCP's SRTT gain); the EWMA
// is kept scaled by 2^HH_EWMA_SHIFT (units of 1/8 us), so that the shift
// loses no precision.
#define HH_EWMA_SHIFT 3
// A heavy-hitter report to the controller as a packet-in, where it takes
// no digests (ONOS 2.7): Ethernet, this ethertype, then hh_report_t.
const bit<16> ETHERTYPE_HH_REPORT = 0x88b8;

#endif
