// SPDX-License-Identifier: Apache-2.0
// L2 exact and L3 (IPv4 LPM) forwarding.
#ifndef FLOWBUF_FORWARDING_P4
#define FLOWBUF_FORWARDING_P4

#include "headers.p4"

control Forwarding(inout parsed_headers_t hdr,
                   inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {

    direct_counter(CounterType.packets_and_bytes) l2_exact_counter;
    direct_counter(CounterType.packets_and_bytes) routing_v4_counter;

    action set_egress_port(port_num_t port) {
        std_meta.egress_spec = port;
        meta.forwarded = true;
    }

    action set_mcast_group(mcast_group_id_t group_id) {
        std_meta.mcast_grp = group_id;
        meta.forwarded = true;
    }

    action drop() {
        mark_to_drop(std_meta);
        meta.forwarded = true;
    }

    table l2_exact {
        key = {
            hdr.ethernet.dst_addr: exact @name("eth_dst");
        }
        actions = {
            set_egress_port;
            set_mcast_group;
            drop;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = l2_exact_counter;
        size = 4096;
    }

    action route(port_num_t port, mac_addr_t src_mac, mac_addr_t dst_mac) {
        std_meta.egress_spec = port;
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        meta.forwarded = true;
    }

    table routing_v4 {
        key = {
            hdr.ipv4.dst_addr: lpm @name("ipv4_dst");
        }
        actions = {
            route;
            set_mcast_group;
            drop;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = routing_v4_counter;
        size = 4096;
    }

    apply {
        if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {
            routing_v4.apply();
        }
        if (!meta.forwarded) {
            l2_exact.apply();
        }
    }
}

#endif
