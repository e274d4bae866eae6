// SPDX-License-Identifier: Apache-2.0
// QoS: which egress queue (std_meta.priority) a packet waits in, by its
// IPv4 DSCP. pbswitch serves a port's queues by strict priority (7 first);
// BMv2 does with --priority-queues 8. The UPF sets the queue of its own
// traffic by QFI (include/upf.p4); this table is for everything else.
#ifndef FLOWBUF_QOS_P4
#define FLOWBUF_QOS_P4

#include "headers.p4"

control Qos(inout parsed_headers_t hdr,
            inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {

    action set_queue(bit<3> queue) {
        std_meta.priority = queue;
    }

    table dscp_queues {
        key = {
            hdr.ipv4.dscp: exact @name("dscp");
        }
        actions = {
            set_queue;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 64;
    }

    apply {
        if (hdr.ipv4.isValid() && meta.upf.direction == UPF_DIR_NONE) {
            dscp_queues.apply();
        }
    }
}

#endif
