// SPDX-License-Identifier: Apache-2.0
// Parser and deparser: Ethernet, 802.1Q, IPv4, IPv6, TCP, UDP, ICMP, and in
// UDP port 2152 GTP-U with the IPv4/TCP/UDP/ICMP packet it carries.
#ifndef FLOWBUF_PARSER_P4
#define FLOWBUF_PARSER_P4

#include "headers.p4"

parser ParserImpl(packet_in packet,
                  out parsed_headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {

    state start {
        transition select(std_meta.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            ETHERTYPE_CC_NOTIFY: parse_cc_notify;
            ETHERTYPE_CC_MARKER: parse_cc_marker;
            ETHERTYPE_RADIO: parse_radio;
            default: accept;
        }
    }

    // The ethertype is shared (see ETHERTYPE_RADIO): only a frame whose
    // first byte is the RLC magic is a radio frame.
    state parse_radio {
        transition select(packet.lookahead<bit<8>>()) {
            RLC_MAGIC: parse_rlc;
            default: accept;
        }
    }

    state parse_rlc {
        packet.extract(hdr.rlc);
        transition select(hdr.rlc.version) {
            RLC_VERSION: parse_pdcp;
            default: accept;  // the gNodeB drops it as malformed
        }
    }

    // A data PDU carries the UE's IPv4 packet; a status ends here.
    state parse_pdcp {
        packet.extract(hdr.pdcp);
        transition select(hdr.pdcp.dc) {
            PDCP_DC_DATA: parse_ipv4;
            default: accept;
        }
    }

    state parse_cc_notify {
        packet.extract(hdr.cc_notify);
        transition accept;
    }

    state parse_cc_marker {
        packet.extract(hdr.cc_marker);
        transition accept;
    }

    state parse_vlan {
        packet.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_IPV6: parse_ipv6;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        meta.ip_proto = hdr.ipv4.protocol;
        transition select(hdr.ipv4.protocol) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
            IP_PROTO_ICMP: parse_icmp;
            default: accept;
        }
    }

    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        meta.ip_proto = hdr.ipv6.next_hdr;
        transition select(hdr.ipv6.next_hdr) {
            IP_PROTO_TCP: parse_tcp;
            IP_PROTO_UDP: parse_udp;
            IP_PROTO_ICMPV6: parse_icmp;
            default: accept;
        }
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        meta.l4_src_port = hdr.tcp.src_port;
        meta.l4_dst_port = hdr.tcp.dst_port;
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        meta.l4_src_port = hdr.udp.src_port;
        meta.l4_dst_port = hdr.udp.dst_port;
        transition select(hdr.udp.dst_port) {
            UDP_PORT_GTPU: parse_gtpu;
            default: accept;
        }
    }

    state parse_icmp {
        packet.extract(hdr.icmp);
        transition accept;
    }

    // Only a G-PDU of GTPv1 carries a user packet. Anything else (echo,
    // end marker, GTP') stops here: the UPF drops it as malformed when it
    // is addressed to an N3 address; elsewhere it is plain UDP.
    state parse_gtpu {
        packet.extract(hdr.gtpu);
        transition select(hdr.gtpu.version, hdr.gtpu.pt, hdr.gtpu.msgtype,
                          hdr.gtpu.ex_flag, hdr.gtpu.seq_flag, hdr.gtpu.npdu_flag) {
            (GTP_V1, GTP_PROTOCOL_TYPE_GTP, GTPU_GPDU, 0, 0, 0): parse_inner_ipv4;
            (GTP_V1, GTP_PROTOCOL_TYPE_GTP, GTPU_GPDU, _, _, _): parse_gtpu_options;
            default: accept;
        }
    }

    // The next extension type counts only with E set.
    state parse_gtpu_options {
        packet.extract(hdr.gtpu_options);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu_options.next_ext) {
            (0, _): parse_inner_ipv4;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: accept;  // an extension this program does not know
        }
    }

    // A longer container, or another extension after it, is not parsed:
    // without the inner header the UPF drops the packet as malformed.
    state parse_gtpu_psc {
        packet.extract(hdr.gtpu_psc);
        transition select(hdr.gtpu_psc.len, hdr.gtpu_psc.next_ext) {
            (GTPU_PSC_LEN_WORDS, GTPU_NEXT_EXT_NONE): parse_inner_ipv4;
            default: accept;
        }
    }

    state parse_inner_ipv4 {
        packet.extract(hdr.inner_ipv4);
        transition select(hdr.inner_ipv4.protocol) {
            IP_PROTO_TCP: parse_inner_tcp;
            IP_PROTO_UDP: parse_inner_udp;
            IP_PROTO_ICMP: parse_inner_icmp;
            default: accept;
        }
    }

    state parse_inner_tcp {
        packet.extract(hdr.inner_tcp);
        transition accept;
    }

    state parse_inner_udp {
        packet.extract(hdr.inner_udp);
        transition accept;
    }

    state parse_inner_icmp {
        packet.extract(hdr.inner_icmp);
        transition accept;
    }
}

control DeparserImpl(packet_out packet, in parsed_headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.buffer_tag);
        packet.emit(hdr.cc_notify);
        packet.emit(hdr.cc_report);
        packet.emit(hdr.hh_report);
        packet.emit(hdr.cc_marker);
        packet.emit(hdr.rlc);
        packet.emit(hdr.pdcp);
        packet.emit(hdr.vlan);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ipv6);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
        packet.emit(hdr.icmp);
        packet.emit(hdr.gtpu);
        packet.emit(hdr.gtpu_options);
        packet.emit(hdr.gtpu_psc);
        packet.emit(hdr.inner_ipv4);
        packet.emit(hdr.inner_tcp);
        packet.emit(hdr.inner_udp);
        packet.emit(hdr.inner_icmp);
    }
}

#endif
