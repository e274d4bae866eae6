// SPDX-License-Identifier: Apache-2.0
// Flow steering to and from buffer vports (Programmable Buffers): a flow is
// paused by steering it into a vport (rules with from_vport 0) and resumed by
// the buffer replaying it from that vport; replays are steered towards the
// resume port (rules with from_vport 1) or, with no rule, go on to forwarding.
#ifndef FLOWBUF_STEERING_P4
#define FLOWBUF_STEERING_P4

#include "headers.p4"

control Steering(inout parsed_headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t std_meta) {

    direct_counter(CounterType.packets_and_bytes) vport_ports_counter;
    direct_counter(CounterType.packets_and_bytes) flow_steering_counter;

    action mark_from_vport() {
        meta.from_vport = 1;
    }

    // Ports whose far end is a buffer: their packets are replays.
    table vport_ports {
        key = {
            std_meta.ingress_port: exact @name("ingress_port");
        }
        actions = {
            mark_from_vport;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = vport_ports_counter;
        size = 256;
    }

    action steer_to_port(port_num_t port) {
        std_meta.egress_spec = port;
        meta.forwarded = true;
    }

    // Pause into one of the logical vports that share a vport port: the
    // buffer agent tells them apart by the tag egress pushes (BufferTagPush).
    action steer_to_buffer(port_num_t port, buffer_tag_t tag) {
        std_meta.egress_spec = port;
        meta.buffer_tag = tag;
        meta.forwarded = true;
    }

    // FMM: the anchor multicasts a UE's flow to several eNB switches.
    action steer_to_mcast_group(mcast_group_id_t group_id) {
        std_meta.mcast_grp = group_id;
        meta.forwarded = true;
    }

    // Replay flag + in-port + IPv4 5-tuple -> a vport (pause) or any port
    // (resume, redirect). Ternary so that one rule covers a prefix of a flow
    // filter; priorities order overlapping filters.
    table flow_steering {
        key = {
            meta.from_vport: ternary @name("from_vport");
            std_meta.ingress_port: ternary @name("ingress_port");
            hdr.ipv4.src_addr: ternary @name("ipv4_src");
            hdr.ipv4.dst_addr: ternary @name("ipv4_dst");
            meta.ip_proto: ternary @name("ip_proto");
            meta.l4_src_port: ternary @name("l4_src_port");
            meta.l4_dst_port: ternary @name("l4_dst_port");
        }
        actions = {
            steer_to_port;
            steer_to_buffer;
            steer_to_mcast_group;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = flow_steering_counter;
        size = FLOW_STEERING_SIZE;
    }

    apply {
        vport_ports.apply();
        if (hdr.ipv4.isValid()) {
            flow_steering.apply();
        }
    }
}

// Egress: a frame going into a shared vport carries its logical vport's
// tag (a tag of 0 is an ordinary vport, and is never pushed).
control BufferTagPush(inout parsed_headers_t hdr,
                      in local_metadata_t meta) {
    apply {
        if (meta.buffer_tag != 0) {
            hdr.buffer_tag.setValid();
            hdr.buffer_tag.tag = meta.buffer_tag;
            hdr.buffer_tag.ether_type = hdr.ethernet.ether_type;
            hdr.ethernet.ether_type = ETHERTYPE_BUFFER_TAG;
        }
    }
}

#endif
