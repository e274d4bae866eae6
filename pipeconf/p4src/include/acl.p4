// SPDX-License-Identifier: Apache-2.0
// ACL: punt or copy packets to the controller, or drop them. Applied last,
// so it overrides steering and forwarding.
#ifndef FLOWBUF_ACL_P4
#define FLOWBUF_ACL_P4

#include "headers.p4"

control Acl(inout parsed_headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {

    direct_counter(CounterType.packets_and_bytes) acl_counter;

    action punt_to_cpu() {
        std_meta.egress_spec = CPU_PORT;
        std_meta.mcast_grp = 0;
    }

    action copy_to_cpu() {
        meta.cpu_ingress_port = std_meta.ingress_port;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, CLONE_FL_CPU);
    }

    action drop() {
        mark_to_drop(std_meta);
    }

    table acl_table {
        key = {
            std_meta.ingress_port: ternary @name("ingress_port");
            hdr.ethernet.dst_addr: ternary @name("eth_dst");
            hdr.ethernet.src_addr: ternary @name("eth_src");
            hdr.ethernet.ether_type: ternary @name("eth_type");
            hdr.ipv4.src_addr: ternary @name("ipv4_src");
            hdr.ipv4.dst_addr: ternary @name("ipv4_dst");
            meta.ip_proto: ternary @name("ip_proto");
            meta.l4_src_port: ternary @name("l4_src_port");
            meta.l4_dst_port: ternary @name("l4_dst_port");
        }
        actions = {
            punt_to_cpu;
            copy_to_cpu;
            drop;
            NoAction;
        }
        const default_action = NoAction();
        counters = acl_counter;
        size = 1024;
    }

    apply {
        acl_table.apply();
    }
}

#endif
