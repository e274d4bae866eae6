// SPDX-License-Identifier: Apache-2.0
// The 5G User Plane Function (hybrid P4 UPF, section 5.1; modelled on the
// logical pipeline of ONF's up4 and the UPF of fabric-tna's v1model profile):
//
//   UpfClassifier  which side a packet came from (interfaces), and the UE's
//                  5-tuple the later lookups match
//   Firewall       (firewall.p4) direction-aware allow/deny
//   Upf            sessions -> applications -> terminations -> tunnel peer
//                  -> meters -> counters, queue, GTP-U decap or encap
//
// Uplink: a gNodeB's GTP-U packet to an N3 address; its session is
// (N3 address, TEID), its termination (UE address, application); it leaves
// decapsulated, routed by forwarding on the UE's destination.
// Downlink: a packet to a UE pool; its session is the UE address (which
// names a tunnel peer, or a FlowBuf buffer to hold the UE's packets), its
// termination (UE address, application) gives TEID and QFI; it leaves
// GTP-U encapsulated towards the tunnel peer, routed by forwarding.
//
// Every packet the UPF drops is counted in upf.drops under its reason
// (UPF_DROP_* in defines.p4).
#ifndef FLOWBUF_UPF_P4
#define FLOWBUF_UPF_P4

#include "headers.p4"

// Tells uplink from downlink and fills meta.upf's lookup fields.
control UpfClassifier(inout parsed_headers_t hdr,
                      inout local_metadata_t meta,
                      inout standard_metadata_t std_meta) {

    // N3 addresses: gNodeBs send uplink GTP-U to them.
    action iface_access() {
        meta.upf.direction = UPF_DIR_UPLINK;
    }

    // UE pools: downlink packets to UEs.
    action iface_core() {
        meta.upf.direction = UPF_DIR_DOWNLINK;
    }

    table interfaces {
        key = {
            hdr.ipv4.dst_addr: lpm @name("ipv4_dst");
        }
        actions = {
            iface_access;
            iface_core;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = UPF_MAX_INTERFACES;
    }

    @hidden
    action drop(bit<32> reason) {
        meta.upf.dropped = true;
        meta.upf.drop_reason = reason;
    }

    // The tunnelled packet, from the UE's side.
    @hidden
    action uplink_keys() {
        meta.upf.ue_addr = hdr.inner_ipv4.src_addr;
        meta.upf.app_addr = hdr.inner_ipv4.dst_addr;
        meta.upf.ip_proto = hdr.inner_ipv4.protocol;
    }

    @hidden
    action downlink_keys() {
        meta.upf.ue_addr = hdr.ipv4.dst_addr;
        meta.upf.app_addr = hdr.ipv4.src_addr;
        meta.upf.ip_proto = meta.ip_proto;
        meta.upf.ue_port = meta.l4_dst_port;
        meta.upf.app_port = meta.l4_src_port;
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            return;
        }
        interfaces.apply();
        if (meta.upf.direction == UPF_DIR_UPLINK) {
            // Only GTP-U is the UPF's: a ping to an N3 address is not.
            if (!hdr.udp.isValid() || hdr.udp.dst_port != UDP_PORT_GTPU) {
                meta.upf.direction = UPF_DIR_NONE;
                return;
            }
            // A G-PDU carrying a whole IPv4 packet, with lengths that agree
            // with each other and with the frame: anything else (other GTP
            // messages, unknown extensions, truncated or garbled headers)
            // cannot be decapsulated.
            if (std_meta.parser_error != error.NoError
                    || !hdr.inner_ipv4.isValid()
                    || hdr.inner_ipv4.version != 4 || hdr.inner_ipv4.ihl != 5
                    || hdr.ipv4.ihl != 5
                    || hdr.udp.len != hdr.ipv4.total_len - IPV4_HDR_BYTES
                    || hdr.gtpu.msglen != hdr.udp.len - UDP_HDR_BYTES - GTPU_HDR_BYTES
                    || std_meta.packet_length < ETH_HDR_BYTES + (bit<32>) hdr.ipv4.total_len) {
                drop(UPF_DROP_MALFORMED_GTPU);
                return;
            }
            uplink_keys();
            if (hdr.inner_tcp.isValid()) {
                meta.upf.ue_port = hdr.inner_tcp.src_port;
                meta.upf.app_port = hdr.inner_tcp.dst_port;
            } else if (hdr.inner_udp.isValid()) {
                meta.upf.ue_port = hdr.inner_udp.src_port;
                meta.upf.app_port = hdr.inner_udp.dst_port;
            }
        } else if (meta.upf.direction == UPF_DIR_DOWNLINK) {
            // Its GTP-U headers were parsed into the ones encapsulation
            // fills: this program has no room for a tunnel in a tunnel.
            if (hdr.gtpu.isValid()) {
                drop(UPF_DROP_GTPU_TO_UE);
                return;
            }
            downlink_keys();
        }
    }
}

// Uplink: the tunnelled packet becomes the packet; the blocks after the
// UPF (forwarding, ACL) see the UE's packet.
control GtpuDecap(inout parsed_headers_t hdr, inout local_metadata_t meta) {
    apply {
        // Header assignment copies validity too: an invalid inner_tcp
        // leaves tcp invalid.
        hdr.ipv4 = hdr.inner_ipv4;
        hdr.udp = hdr.inner_udp;
        hdr.tcp = hdr.inner_tcp;
        hdr.icmp = hdr.inner_icmp;
        hdr.gtpu.setInvalid();
        hdr.gtpu_options.setInvalid();
        hdr.gtpu_psc.setInvalid();
        hdr.inner_ipv4.setInvalid();
        hdr.inner_udp.setInvalid();
        hdr.inner_tcp.setInvalid();
        hdr.inner_icmp.setInvalid();
        meta.ip_proto = meta.upf.ip_proto;
        meta.l4_src_port = meta.upf.ue_port;
        meta.l4_dst_port = meta.upf.app_port;
    }
}

// Downlink: the packet moves inside a GTP-U tunnel to meta.upf's tunnel
// peer, with a PDU Session Container carrying its QFI (5G N3). The outer
// header keeps the packet's DSCP and ECN (RFC 2983's uniform model, RFC
// 6040's normal mode), so that the transport network sees both. The outer
// IPv4 checksum is computed by ComputeChecksumImpl; the outer UDP checksum
// is 0, which UDP over IPv4 allows (RFC 768) and GTP-U receivers accept:
// computing it would mean summing the whole payload for every packet.
control GtpuEncap(inout parsed_headers_t hdr, inout local_metadata_t meta) {
    apply {
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.inner_udp = hdr.udp;
        hdr.inner_tcp = hdr.tcp;
        hdr.inner_icmp = hdr.icmp;
        hdr.tcp.setInvalid();
        hdr.icmp.setInvalid();

        // Everything after the outer UDP header.
        bit<16> gtpu_bytes = GTPU_HDR_BYTES + GTPU_OPTIONS_BYTES + GTPU_PSC_BYTES
                             + hdr.inner_ipv4.total_len;

        hdr.ipv4.version = 4;
        hdr.ipv4.ihl = 5;
        hdr.ipv4.total_len = IPV4_HDR_BYTES + UDP_HDR_BYTES + gtpu_bytes;
        hdr.ipv4.identification = 0;
        hdr.ipv4.flags = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = DEFAULT_IPV4_TTL;
        hdr.ipv4.protocol = IP_PROTO_UDP;
        hdr.ipv4.hdr_checksum = 0;
        hdr.ipv4.src_addr = meta.upf.tunnel_src;
        hdr.ipv4.dst_addr = meta.upf.tunnel_dst;

        hdr.udp.setValid();
        hdr.udp.src_port = meta.upf.tunnel_sport;
        hdr.udp.dst_port = UDP_PORT_GTPU;
        hdr.udp.len = UDP_HDR_BYTES + gtpu_bytes;
        hdr.udp.checksum = 0;

        hdr.gtpu.setValid();
        hdr.gtpu.version = GTP_V1;
        hdr.gtpu.pt = GTP_PROTOCOL_TYPE_GTP;
        hdr.gtpu.spare = 0;
        hdr.gtpu.ex_flag = 1;
        hdr.gtpu.seq_flag = 0;
        hdr.gtpu.npdu_flag = 0;
        hdr.gtpu.msgtype = GTPU_GPDU;
        hdr.gtpu.msglen = gtpu_bytes - GTPU_HDR_BYTES;
        hdr.gtpu.teid = meta.upf.teid;

        hdr.gtpu_options.setValid();
        hdr.gtpu_options.seq_num = 0;
        hdr.gtpu_options.n_pdu_num = 0;
        hdr.gtpu_options.next_ext = GTPU_NEXT_EXT_PSC;

        hdr.gtpu_psc.setValid();
        hdr.gtpu_psc.len = GTPU_PSC_LEN_WORDS;
        hdr.gtpu_psc.pdu_type = GTPU_PSC_TYPE_DL;
        hdr.gtpu_psc.flags = 0;
        hdr.gtpu_psc.flags2 = 0;
        hdr.gtpu_psc.qfi = meta.upf.qfi;
        hdr.gtpu_psc.next_ext = GTPU_NEXT_EXT_NONE;

        meta.ip_proto = IP_PROTO_UDP;
        meta.l4_src_port = meta.upf.tunnel_sport;
        meta.l4_dst_port = UDP_PORT_GTPU;
    }
}

control Upf(inout parsed_headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {

    GtpuDecap() gtpu_decap;
    GtpuEncap() gtpu_encap;

    // What each session took in (before the meters) and what each
    // termination sent on (after them), by the cells the entries name.
    counter(UPF_INDEX_CELLS, CounterType.packets_and_bytes) session_counter;
    counter(UPF_INDEX_CELLS, CounterType.packets_and_bytes) termination_counter;
    // Every drop of the UPF and its firewall, by reason (UPF_DROP_*).
    counter(UPF_DROP_REASONS, CounterType.packets_and_bytes) drops;

    // Two-rate three-colour meters (RFC 2698): a session's AMBR and an
    // application's rate. Over the peak rate is red, dropped; between the
    // committed and the peak rate yellow, passed. A cell nobody configured
    // marks everything green, so cell 0 stands for "no meter".
    meter(UPF_INDEX_CELLS, MeterType.bytes) session_meter;
    meter(UPF_INDEX_CELLS, MeterType.bytes) app_meter;

    @hidden
    action drop(bit<32> reason) {
        meta.upf.dropped = true;
        meta.upf.drop_reason = reason;
    }

    // ---- sessions ----------------------------------------------------

    action set_uplink_session(upf_index_t ctr_idx, upf_index_t meter_idx) {
        meta.upf.session_ctr = ctr_idx;
        meta.upf.session_meter = meter_idx;
    }

    action uplink_session_drop(upf_index_t ctr_idx) {
        meta.upf.session_ctr = ctr_idx;
        drop(UPF_DROP_SESSION_DROP);
    }

    action uplink_session_miss() {
        drop(UPF_DROP_UPLINK_SESSION_MISS);
    }

    table uplink_sessions {
        key = {
            hdr.ipv4.dst_addr: exact @name("n3_addr");
            hdr.gtpu.teid: exact @name("teid");
        }
        actions = {
            set_uplink_session;
            uplink_session_drop;
            @defaultonly uplink_session_miss;
        }
        const default_action = uplink_session_miss();
        size = UPF_MAX_SESSIONS;
    }

    action set_downlink_session(upf_index_t ctr_idx, upf_index_t meter_idx,
                                tunnel_peer_id_t tunnel_peer_id) {
        meta.upf.session_ctr = ctr_idx;
        meta.upf.session_meter = meter_idx;
        meta.upf.tunnel_peer = tunnel_peer_id;
    }

    // The buffering hook (DBUF-style): the UE's packets go to the FlowBuf
    // buffer behind vport buffer_port; what the buffer replays (from_vport)
    // goes on to the tunnel peer like any packet of the session.
    action set_downlink_session_buf(upf_index_t ctr_idx, upf_index_t meter_idx,
                                    tunnel_peer_id_t tunnel_peer_id,
                                    port_num_t buffer_port) {
        set_downlink_session(ctr_idx, meter_idx, tunnel_peer_id);
        meta.upf.buffer_port = buffer_port;
        meta.upf.to_buffer = true;
    }

    action downlink_session_drop(upf_index_t ctr_idx) {
        meta.upf.session_ctr = ctr_idx;
        drop(UPF_DROP_SESSION_DROP);
    }

    action downlink_session_miss() {
        drop(UPF_DROP_DOWNLINK_SESSION_MISS);
    }

    table downlink_sessions {
        key = {
            meta.upf.ue_addr: exact @name("ue_addr");
        }
        actions = {
            set_downlink_session;
            set_downlink_session_buf;
            downlink_session_drop;
            @defaultonly downlink_session_miss;
        }
        const default_action = downlink_session_miss();
        size = UPF_MAX_SESSIONS;
    }

    // ---- applications ------------------------------------------------

    action set_app_id(app_id_t app_id) {
        meta.upf.app_id = app_id;
    }

    // The UE's 5-tuple -> application (APP_ID_DEFAULT when nothing matches).
    table applications {
        key = {
            meta.upf.ue_addr: ternary @name("ue_addr");
            meta.upf.app_addr: ternary @name("app_addr");
            meta.upf.ip_proto: ternary @name("ip_proto");
            meta.upf.ue_port: range @name("ue_port");
            meta.upf.app_port: range @name("app_port");
        }
        actions = {
            set_app_id;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = UPF_MAX_APPLICATIONS;
    }

    // ---- terminations ------------------------------------------------

    action uplink_term_fwd(upf_index_t ctr_idx, upf_index_t meter_idx, qfi_t qfi) {
        meta.upf.term_ctr = ctr_idx;
        meta.upf.app_meter = meter_idx;
        meta.upf.qfi = qfi;
    }

    action downlink_term_fwd(upf_index_t ctr_idx, upf_index_t meter_idx,
                             teid_t teid, qfi_t qfi) {
        meta.upf.term_ctr = ctr_idx;
        meta.upf.app_meter = meter_idx;
        meta.upf.teid = teid;
        meta.upf.qfi = qfi;
    }

    action term_drop() {
        drop(UPF_DROP_TERMINATION_DROP);
    }

    action term_miss() {
        drop(UPF_DROP_TERMINATION_MISS);
    }

    table uplink_terminations {
        key = {
            meta.upf.ue_addr: exact @name("ue_addr");
            meta.upf.app_id: exact @name("app_id");
        }
        actions = {
            uplink_term_fwd;
            term_drop;
            @defaultonly term_miss;
        }
        const default_action = term_miss();
        size = UPF_MAX_TERMINATIONS;
    }

    table downlink_terminations {
        key = {
            meta.upf.ue_addr: exact @name("ue_addr");
            meta.upf.app_id: exact @name("app_id");
        }
        actions = {
            downlink_term_fwd;
            term_drop;
            @defaultonly term_miss;
        }
        const default_action = term_miss();
        size = UPF_MAX_TERMINATIONS;
    }

    // ---- tunnel peers (gNodeBs), named by downlink sessions ------------

    action set_tunnel_peer(ipv4_addr_t src_addr, ipv4_addr_t dst_addr, l4_port_t sport) {
        meta.upf.tunnel_src = src_addr;
        meta.upf.tunnel_dst = dst_addr;
        meta.upf.tunnel_sport = sport;
    }

    action tunnel_peer_miss() {
        drop(UPF_DROP_TUNNEL_PEER_MISS);
    }

    table tunnel_peers {
        key = {
            meta.upf.tunnel_peer: exact @name("tunnel_peer_id");
        }
        actions = {
            set_tunnel_peer;
            @defaultonly tunnel_peer_miss;
        }
        const default_action = tunnel_peer_miss();
        size = UPF_MAX_TUNNEL_PEERS;
    }

    // ---- QoS: QFI -> egress queue (std_meta.priority: pbswitch's
    // strict-priority queues; BMv2's with --priority-queues, which drops a
    // packet whose priority has no queue) ------------------------------

    action set_queue(bit<3> priority) {
        std_meta.priority = priority;
    }

    table queues {
        key = {
            meta.upf.qfi: exact @name("qfi");
        }
        actions = {
            set_queue;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 64;
    }

    // ------------------------------------------------------------------

    @hidden
    action send_to_buffer() {
        std_meta.egress_spec = meta.upf.buffer_port;
        meta.forwarded = true;
    }

    // The application's meter first: what it drops does not use up the
    // session's rate.
    @hidden
    action meter_app(out meter_color_t color) {
        app_meter.execute_meter((bit<32>) meta.upf.app_meter, color);
    }

    @hidden
    action meter_session(out meter_color_t color) {
        session_meter.execute_meter((bit<32>) meta.upf.session_meter, color);
    }

    apply {
        if (meta.upf.direction == UPF_DIR_NONE) {
            return;
        }
        if (!meta.upf.dropped) {
            bool hit;
            if (meta.upf.direction == UPF_DIR_UPLINK) {
                hit = uplink_sessions.apply().hit;
            } else {
                hit = downlink_sessions.apply().hit;
                // A fast-path switch (hybrid.p4): a UE it holds no session
                // for is the slow path's, and leaves as it came.
                if (!hit && meta.hybrid.enabled) {
                    meta.upf.dropped = false;
                    std_meta.egress_spec = meta.hybrid.slow_port;
                    meta.forwarded = true;
                    return;
                }
            }
            // Replays of a buffered session were counted on their way in.
            if (hit && !(meta.upf.to_buffer && meta.from_vport == 1)) {
                session_counter.count((bit<32>) meta.upf.session_ctr);
            }
        }
        if (meta.upf.to_buffer && meta.from_vport == 0 && !meta.upf.dropped) {
            send_to_buffer();
            return;
        }

        if (!meta.upf.dropped) {
            applications.apply();
            if (meta.upf.direction == UPF_DIR_UPLINK) {
                uplink_terminations.apply();
            } else {
                downlink_terminations.apply();
            }
        }
        if (meta.upf.direction == UPF_DIR_DOWNLINK && !meta.upf.dropped) {
            tunnel_peers.apply();
        }
        if (!meta.upf.dropped) {
            meter_color_t color = METER_GREEN;
            meter_app(color);
            if (color == METER_RED) {
                drop(UPF_DROP_APP_METER);
            } else {
                meter_session(color);
                if (color == METER_RED) {
                    drop(UPF_DROP_SESSION_METER);
                }
            }
        }

        if (meta.upf.dropped) {
            mark_to_drop(std_meta);
            meta.forwarded = true;
            drops.count(meta.upf.drop_reason);
            return;
        }
        termination_counter.count((bit<32>) meta.upf.term_ctr);
        queues.apply();
        if (meta.upf.direction == UPF_DIR_UPLINK) {
            gtpu_decap.apply(hdr, meta);
        } else {
            gtpu_encap.apply(hdr, meta);
        }
    }
}

#endif
