// SPDX-License-Identifier: Apache-2.0
// The UPF's firewall (hybrid P4 UPF, section 5.1): global rules on the UE's
// 5-tuple and the direction, applied before the UPF's sessions so that
// denied traffic uses no session's rate. Only UPF traffic (a direction set
// by the UPF's interfaces table) is checked; what no rule matches passes.
#ifndef FLOWBUF_FIREWALL_P4
#define FLOWBUF_FIREWALL_P4

#include "headers.p4"

control Firewall(inout parsed_headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t std_meta) {

    direct_counter(CounterType.packets_and_bytes) rules_counter;

    // An explicit allow, to make an exception to a broader deny.
    action allow() {
    }

    // The UPF drops the packet and counts it (UPF_DROP_FIREWALL).
    action deny() {
        meta.upf.dropped = true;
        meta.upf.drop_reason = UPF_DROP_FIREWALL;
    }

    // Ternary on the direction, so that one rule may cover both.
    table rules {
        key = {
            meta.upf.direction: ternary @name("direction");
            meta.upf.ue_addr: ternary @name("ue_addr");
            meta.upf.app_addr: ternary @name("app_addr");
            meta.upf.ip_proto: ternary @name("ip_proto");
            meta.upf.ue_port: range @name("ue_port");
            meta.upf.app_port: range @name("app_port");
        }
        actions = {
            allow;
            deny;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        counters = rules_counter;
        size = UPF_MAX_FIREWALL_RULES;
    }

    apply {
        if (meta.upf.direction != UPF_DIR_NONE && !meta.upf.dropped) {
            rules.apply();
        }
    }
}

#endif
