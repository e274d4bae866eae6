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

// Pushed in egress on frames sent into a tagged (shared) vport, see
// ETHERTYPE_BUFFER_TAG.
header buffer_tag_h {
    buffer_tag_t tag;
    bit<16>      ether_type;  // the frame's own ethertype
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

// GTPv1-U (3GPP TS 29.281): the mandatory part.
header gtpu_t {
    bit<3>  version;    // GTP_V1
    bit<1>  pt;         // protocol type: 1 GTP, 0 GTP'
    bit<1>  spare;
    bit<1>  ex_flag;    // E: an extension header follows the options
    bit<1>  seq_flag;   // S: the sequence number is meaningful
    bit<1>  npdu_flag;  // PN: the N-PDU number is meaningful
    bit<8>  msgtype;
    bit<16> msglen;     // bytes after these 8: options, extensions, payload
    teid_t  teid;
}

// Present when any of E, S or PN is set.
header gtpu_options_t {
    bit<16> seq_num;
    bit<8>  n_pdu_num;
    bit<8>  next_ext;
}

// The PDU Session Container extension (TS 38.415) without optional fields:
// one 4-byte word carrying the QoS flow identifier. The second byte's low
// bits are QMP/SNP/... (their meaning depends on pdu_type), the third
// byte's two high bits PPP/RQI (downlink) or delay/new-IE flags (uplink).
header gtpu_psc_t {
    bit<8>  len;        // in 4-byte words: GTPU_PSC_LEN_WORDS
    bit<4>  pdu_type;   // GTPU_PSC_TYPE_DL or GTPU_PSC_TYPE_UL
    bit<4>  flags;
    bit<2>  flags2;
    qfi_t   qfi;
    bit<8>  next_ext;
}

// Radio frames of the gNodeB (include/gnb.p4; layout in defines.p4).
// RLC: the magic, the version and the bearer (the downlink TEID the
// gNodeB chose for the UE's session, which names it on the gNodeB).
header rlc_t {
    bit<8>  magic;      // RLC_MAGIC
    bit<8>  version;    // RLC_VERSION
    teid_t  teid;
}

// PDCP: D/C, then for data 13 zero bits and the SN; for a status the PDU
// type (0), 10 zero bits and the first acknowledged SN (its last one
// follows as payload, which only the BaaS buffer reads).
header pdcp_t {
    bit<1>  dc;
    bit<3>  pdu_type;
    bit<10> reserved;
    bit<18> sn;
}

// Congestion notification (include/congestion.p4): which flow, which
// switch found it congested, and the delays it measured (microseconds).
header cc_notify_t {
    cc_flow_t flow;
    bit<16>   switch_id;
    bit<32>   queue_us;
    bit<32>   proc_us;
}

// Switch-over report (include/congestion.p4), to the controller as a
// packet-in where it takes no digests (ONOS 2.7): the notification's
// fields, then the slot the flow takes now. It follows an Ethernet header
// of type ETHERTYPE_CC_NOTIFY and never goes out of a switch port.
header cc_report_t {
    cc_flow_t flow;
    bit<16>   switch_id;
    bit<32>   queue_us;
    bit<32>   proc_us;
    bit<7>    _pad;
    bit<1>    slot;
}

// Heavy-hitter report (include/hh.p4), to the controller as a packet-in
// where it takes no digests (ONOS 2.7): hh_digest_t's fields in its order.
// It follows an Ethernet header of type ETHERTYPE_HH_REPORT and never goes
// out of a switch port.
header hh_report_t {
    bit<32> ue_addr;
    bit<32> app_addr;
    bit<8>  ip_proto;
    bit<16> ue_port;
    bit<16> app_port;
    bit<48> ewma;
    bit<32> index;
}

// End marker of an ordered switch-over (include/congestion.p4): which
// flow, which switch moved it, and how many markers that switch has sent
// for the flow (1 for its first switch-over).
header cc_marker_t {
    cc_flow_t flow;
    bit<16>   switch_id;
    bit<32>   seq;
}

// Outer headers in ipv4/udp and the tunnelled packet in inner_*: the
// blocks written before the UPF (steering, forwarding, ACL) see a GTP-U
// packet as the UDP packet it is on the wire. GTP-U decapsulation moves the
// inner headers out; encapsulation moves ipv4/l4 in.
struct parsed_headers_t {
    packet_out_t   packet_out;
    packet_in_t    packet_in;
    ethernet_t     ethernet;
    buffer_tag_h   buffer_tag;
    cc_notify_t    cc_notify;
    cc_report_t    cc_report;
    hh_report_t    hh_report;
    cc_marker_t    cc_marker;
    rlc_t          rlc;
    pdcp_t         pdcp;
    vlan_t         vlan;
    ipv4_t         ipv4;
    ipv6_t         ipv6;
    tcp_t          tcp;
    udp_t          udp;
    icmp_t         icmp;
    gtpu_t         gtpu;
    gtpu_options_t gtpu_options;
    gtpu_psc_t     gtpu_psc;
    ipv4_t         inner_ipv4;
    tcp_t          inner_tcp;
    udp_t          inner_udp;
    icmp_t         inner_icmp;
}

// What the UPF knows of a packet. The lookup fields describe the UE's
// packet (the tunnelled one in the uplink, the plain one in the downlink)
// from the UE's side, so one application or firewall rule covers both
// directions.
struct upf_metadata_t {
    upf_direction_t  direction;
    ipv4_addr_t      ue_addr;
    ipv4_addr_t      app_addr;   // the data network's end
    bit<8>           ip_proto;
    l4_port_t        ue_port;
    l4_port_t        app_port;
    app_id_t         app_id;
    // Chosen by the session and termination lookups.
    upf_index_t      session_ctr;
    upf_index_t      session_meter;
    upf_index_t      term_ctr;
    upf_index_t      app_meter;
    tunnel_peer_id_t tunnel_peer;
    ipv4_addr_t      tunnel_src;
    ipv4_addr_t      tunnel_dst;
    l4_port_t        tunnel_sport;
    teid_t           teid;
    qfi_t            qfi;
    // A downlink session held in a FlowBuf buffer (the vport buffer_port).
    bool             to_buffer;
    port_num_t       buffer_port;
    // Set by the classifier, the firewall or the UPF; the UPF drops the
    // packet and counts it under drop_reason (UPF_DROP_*).
    bool             dropped;
    bit<32>          drop_reason;
}

// FB buffer admission (include/fb.p4): what ingress weighed and decided,
// carried to egress for the release of an admitted packet.
struct fb_metadata_t {
    bool    enabled;     // the packet's port and class are FB-admitted
    bool    admitted;    // FB charged it to its queue
    bit<1>  high;        // the class's buffer priority
    bit<8>  alpha_id;    // which alpha the class has (a key of fb_shift)
    bit<32> buffer;      // B, packets (fb_buffer)
    bit<32> idx;         // its queue: egress port ++ priority
    bit<32> qlen;        // packets FB counts in that queue
    bit<32> remaining;   // packets left in the buffer (B - occupied)
    bit<32> congested;   // N_p: congested queues of its buffer priority
    bit<32> active;      // n: congested queues of its port
    bit<8>  left;        // threshold = (remaining << left) >> right
    bit<8>  right;
}

// Congestion avoidance (include/congestion.p4).
struct cc_metadata_t {
    bool      tracked;        // a latency-critical flow (cc_flows)
    @field_list(CLONE_FL_CC, CLONE_FL_CPU)
    cc_flow_t flow;
    bit<32>   generation;     // its registration (cc_flows), see cc_generation
    bit<32>   stored_generation;
    @field_list(CLONE_FL_CPU)
    bit<1>    slot;           // the path slot ingress used
    bit<1>    other_slot;
    bool      has_alternate;  // a path is installed in the other slot
    bit<1>    flipped;        // the flow switched since ingress last reported
    @field_list(CLONE_FL_CC, CLONE_FL_CPU)
    bit<16>   switch_id;
    bit<1>    report_to_cpu;  // switch-overs also go to the controller as packet-ins
    bit<32>   queue_limit_us; // t_q
    bit<32>   proc_limit_us;  // t_p
    bit<32>   m;
    @field_list(CLONE_FL_CC, CLONE_FL_CPU)
    bit<32>   queue_us;       // measured in egress
    @field_list(CLONE_FL_CC, CLONE_FL_CPU)
    bit<32>   proc_us;
    @field_list(CLONE_FL_CC)
    bool      notify;         // this copy is a notification to build
    @field_list(CLONE_FL_CPU)
    bool      report;         // this copy is a switch-over report to build
    bool      congested;
    @field_list(CLONE_FL_CC)
    bool      marker;         // an end marker leaves (a copy of this packet)
    @field_list(CLONE_FL_CC)
    bit<32>   marker_seq;     // its cc_marker_t.seq
    port_num_t marker_port;   // by this port: the one the flow left
    bit<1>    in_known;       // a packet of the flow came in here (cc_in_known)
    port_num_t in_port;      // by this port (cc_in_port)
}

// Heavy-hitter detection (include/hh.p4).
struct hh_metadata_t {
    bit<32> threshold;   // EWMA gap under which a UE is heavy, 1/8 us (hh_settings)
    bit<32> idle_us;     // a gap this long starts the UE's state afresh (hh_settings)
    @field_list(CLONE_FL_CPU)
    bit<32> index;       // the UE's register cell: crc32(UE address) mod HH_CELLS
    bit<32> min_us;      // a UE is observed this long before a report (hh_observation)
    bit<48> min_bytes;   // and sends at least this much in that time (hh_observation)
    @field_list(CLONE_FL_CPU)
    bit<48> ewma;        // the UE's EWMA gap after this packet, 1/8 us
    bool    report;      // this packet made the UE heavy: digest it
    bit<1>  report_to_cpu;  // and send it to the controller (hh_cpu_report)
    // A copy to the controller: egress makes it an hh_report_t of these.
    @field_list(CLONE_FL_CPU)
    bool    cpu_report;
    @field_list(CLONE_FL_CPU)
    bit<32> ue_addr;
    @field_list(CLONE_FL_CPU)
    bit<32> app_addr;
    @field_list(CLONE_FL_CPU)
    bit<8>  ip_proto;
    @field_list(CLONE_FL_CPU)
    bit<16> ue_port;
    @field_list(CLONE_FL_CPU)
    bit<16> app_port;
}

// The gNodeB (include/gnb.p4).
struct gnb_metadata_t {
    gnb_role_t  role;         // of the ingress port (gnb.ports)
    teid_t      teid;         // the bearer: GTP-U TEID downstream, RLC's upstream
    gnb_index_t sn_index;     // its pdcp_sn cell
    port_num_t  radio_port;   // its cell's radio side
    port_num_t  baas_port;    // its cell's BaaS buffer vport
    mac_addr_t  ue_mac;       // the UE's on the radio side
    bool        clone_to_baas;
}

// Hybrid UPF placement (include/hybrid.p4).
struct hybrid_metadata_t {
    bool       enabled;     // this switch is a fast path: slow_path set the port
    port_num_t slow_port;   // where its downlink session misses go
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
    // Non-zero: the packet goes into the logical vport of this tag on a
    // shared vport port (steer_to_buffer); egress pushes the tag.
    buffer_tag_t buffer_tag;
    // Set when steering or forwarding chose where the packet goes.
    bool       forwarded;
    // Ingress port carried into a clone to the controller.
    @field_list(CLONE_FL_CPU)
    port_num_t cpu_ingress_port;
    upf_metadata_t upf;
    fb_metadata_t  fb;
    cc_metadata_t  cc;
    hh_metadata_t  hh;
    gnb_metadata_t gnb;
    hybrid_metadata_t hybrid;
}

#endif
