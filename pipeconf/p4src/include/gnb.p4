// SPDX-License-Identifier: Apache-2.0
// The hybrid gNodeB's user plane (hybrid P4 UPF/gNodeB paper, section 5.6),
// with FlowBuf's PDCP ARQ buffers as its buffer-as-a-service (BaaS). A
// device is a gNodeB when the controller fills its ports table; with the
// table empty every packet goes on as before.
//
//   downstream: GTP-U from the UPF port -> the TEID names the bearer;
//     decapsulated, RLC + PDCP headers added (the bearer's next SN from the
//     pdcp_sn register), sent to the cell's radio port, and a clone (in
//     egress, E2E: it keeps the new headers) to the cell's BaaS vport.
//   from the BaaS vport: its resends (radio frames) -> the radio port,
//     unchanged and not cloned again.
//   upstream from a radio port: a PDCP status -> the cell's BaaS vport,
//     unchanged; PDCP data -> RLC/PDCP stripped, GTP-U to the UPF.
//
// Not here: ciphering (the paper's asynchronous encryption service): PDUs
// leave in clear. Layout of the radio headers: defines.p4, headers.p4.
#ifndef FLOWBUF_GNB_P4
#define FLOWBUF_GNB_P4

#include "headers.p4"

control Gnb(inout parsed_headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {

    // Every drop of the gNodeB, by reason (GNB_DROP_*).
    counter(GNB_DROP_REASONS, CounterType.packets_and_bytes) drops;
    // The next PDCP SN of each bearer, by its sn_index.
    register<bit<32>>(GNB_SN_CELLS) pdcp_sn;

    @hidden
    action drop(bit<32> reason) {
        mark_to_drop(std_meta);
        drops.count(reason);
        meta.forwarded = true;
    }

    action from_upf() { meta.gnb.role = GNB_ROLE_UPF; }
    action from_radio() { meta.gnb.role = GNB_ROLE_RADIO; }
    action from_baas() { meta.gnb.role = GNB_ROLE_BAAS; }

    // The device's gNodeB ports: its UPF (N3) port, its cells' radio ports
    // and BaaS vport ports.
    table ports {
        key = {
            std_meta.ingress_port: exact @name("ingress_port");
        }
        actions = {
            from_upf;
            from_radio;
            from_baas;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 256;
    }

    action set_downlink_bearer(gnb_index_t sn_index, port_num_t radio_port,
                               port_num_t baas_port, mac_addr_t ue_mac) {
        meta.gnb.sn_index = sn_index;
        meta.gnb.radio_port = radio_port;
        meta.gnb.baas_port = baas_port;
        meta.gnb.ue_mac = ue_mac;
    }

    action downlink_bearer_miss() {
        drop(GNB_DROP_DOWNLINK_BEARER_MISS);
    }

    // A bearer by its downlink TEID: its SN cell, its cell's radio port and
    // BaaS vport, the UE's MAC on the radio side.
    table downlink_bearers {
        key = {
            meta.gnb.teid: exact @name("teid");
        }
        actions = {
            set_downlink_bearer;
            @defaultonly downlink_bearer_miss;
        }
        const default_action = downlink_bearer_miss();
        size = GNB_MAX_BEARERS;
    }

    action set_uplink_bearer(teid_t uplink_teid, ipv4_addr_t gnb_addr,
                             ipv4_addr_t upf_addr, port_num_t upf_port) {
        meta.upf.teid = uplink_teid;
        meta.upf.tunnel_src = gnb_addr;
        meta.upf.tunnel_dst = upf_addr;
        std_meta.egress_spec = upf_port;
    }

    action uplink_bearer_miss() {
        drop(GNB_DROP_UPLINK_BEARER_MISS);
    }

    // A bearer's uplink tunnel, by the bearer (its downlink TEID): the
    // UPF's TEID, the N3 addresses, the port towards the UPF.
    table uplink_bearers {
        key = {
            meta.gnb.teid: exact @name("teid");
        }
        actions = {
            set_uplink_bearer;
            @defaultonly uplink_bearer_miss;
        }
        const default_action = uplink_bearer_miss();
        size = GNB_MAX_BEARERS;
    }

    // The next SN of the bearer, read and written in one action so that
    // two packets never take the same one.
    @hidden
    action next_sn() {
        bit<32> sn;
        pdcp_sn.read(sn, (bit<32>) meta.gnb.sn_index);
        pdcp_sn.write((bit<32>) meta.gnb.sn_index, (sn + 1) & PDCP_SN_MASK);
        hdr.pdcp.sn = (bit<18>) sn;
    }

    // GTP-U off, RLC + PDCP on: the UE's packet becomes the frame's payload.
    @hidden
    action to_radio_frame() {
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
        hdr.ethernet.ether_type = ETHERTYPE_RADIO;
        hdr.rlc.setValid();
        hdr.rlc.magic = RLC_MAGIC;
        hdr.rlc.version = RLC_VERSION;
        hdr.rlc.teid = meta.gnb.teid;
        hdr.pdcp.setValid();
        hdr.pdcp.dc = PDCP_DC_DATA;
        hdr.pdcp.pdu_type = 0;
        hdr.pdcp.reserved = 0;
    }

    // RLC + PDCP off, GTP-U on (no extension header; UDP checksum 0, as the
    // UPF's downlink): the outer IPv4 checksum is computed at the end.
    @hidden
    action to_gtpu() {
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.inner_udp = hdr.udp;
        hdr.inner_tcp = hdr.tcp;
        hdr.inner_icmp = hdr.icmp;
        hdr.tcp.setInvalid();
        hdr.icmp.setInvalid();
        hdr.rlc.setInvalid();
        hdr.pdcp.setInvalid();
        hdr.ethernet.ether_type = ETHERTYPE_IPV4;
        bit<16> gtpu_bytes = GTPU_HDR_BYTES + hdr.inner_ipv4.total_len;
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
        hdr.udp.src_port = UDP_PORT_GTPU;
        hdr.udp.dst_port = UDP_PORT_GTPU;
        hdr.udp.len = UDP_HDR_BYTES + gtpu_bytes;
        hdr.udp.checksum = 0;
        hdr.gtpu.setValid();
        hdr.gtpu.version = GTP_V1;
        hdr.gtpu.pt = GTP_PROTOCOL_TYPE_GTP;
        hdr.gtpu.spare = 0;
        hdr.gtpu.ex_flag = 0;
        hdr.gtpu.seq_flag = 0;
        hdr.gtpu.npdu_flag = 0;
        hdr.gtpu.msgtype = GTPU_GPDU;
        hdr.gtpu.msglen = gtpu_bytes - GTPU_HDR_BYTES;
        hdr.gtpu.teid = meta.upf.teid;
    }

    apply {
        ports.apply();
        if (meta.gnb.role == GNB_ROLE_NONE) {
            return;
        }
        // What the packet is decides the lookups; each table is applied
        // once (BMv2 allows no second application).
        gnb_kind_t kind;
        if (meta.gnb.role == GNB_ROLE_UPF) {
            if (!hdr.gtpu.isValid()) {
                return;  // not user plane (ARP, ...): the rest of the pipeline
            }
            if (!hdr.inner_ipv4.isValid()) {
                drop(GNB_DROP_MALFORMED);
                return;
            }
            meta.gnb.teid = hdr.gtpu.teid;
            kind = GNB_KIND_DOWNSTREAM;
        } else {
            if (!hdr.rlc.isValid()) {
                return;
            }
            if (!hdr.pdcp.isValid()) {
                drop(GNB_DROP_MALFORMED);
                return;
            }
            meta.gnb.teid = hdr.rlc.teid;
            if (meta.gnb.role == GNB_ROLE_BAAS) {
                // A resend: the radio frame as the buffer kept it.
                if (hdr.pdcp.dc != PDCP_DC_DATA) {
                    drop(GNB_DROP_MALFORMED);
                    return;
                }
                kind = GNB_KIND_RESEND;
            } else if (hdr.pdcp.dc == PDCP_DC_CONTROL) {
                kind = GNB_KIND_STATUS;
            } else {
                if (!hdr.ipv4.isValid() || hdr.ipv4.version != 4 || hdr.ipv4.ihl != 5) {
                    drop(GNB_DROP_MALFORMED);
                    return;
                }
                if (uplink_bearers.apply().hit) {
                    to_gtpu();
                    meta.forwarded = true;
                }
                return;
            }
        }
        if (!downlink_bearers.apply().hit) {
            return;
        }
        meta.forwarded = true;
        if (kind == GNB_KIND_DOWNSTREAM) {
            to_radio_frame();
            next_sn();
            hdr.ethernet.dst_addr = meta.gnb.ue_mac;
            std_meta.egress_spec = meta.gnb.radio_port;
            meta.gnb.clone_to_baas = true;
        } else if (kind == GNB_KIND_RESEND) {
            std_meta.egress_spec = meta.gnb.radio_port;
        } else {
            std_meta.egress_spec = meta.gnb.baas_port;  // a status: to the buffer
        }
    }
}

// In egress: the downstream PDU (not a clone of it) is cloned to its
// cell's BaaS vport, with the headers ingress wrote (E2E).
control GnbClone(inout local_metadata_t meta,
                 inout standard_metadata_t std_meta) {
    apply {
        if (meta.gnb.clone_to_baas && std_meta.instance_type == 0) {
            clone(CloneType.E2E, GNB_BAAS_SESSION_BASE + (bit<32>) meta.gnb.baas_port);
        }
    }
}

#endif
