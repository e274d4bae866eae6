// SPDX-License-Identifier: Apache-2.0
// ECN marking at egress (RED with min = max = K, as DCTCP's switches and
// the FB paper's DCTCP rows, §6.2): a packet of an ECN-capable transport
// (ECT(0) or ECT(1)) that found K packets or more ahead of it in its queue
// leaves marked Congestion Experienced. K is per egress port, one entry
// the controller writes; a port without an entry marks nothing. The depth
// is the traffic manager's enq_qdepth: packets, per queue, as BMv2 counts
// them (pbswitch fills the field the same way). Not-ECT packets are left
// as they are (a DropTail queue's buffer admission decides about them).
// The IPv4 checksum is recomputed after egress (include/checksums.p4).
#ifndef FLOWBUF_ECN_P4
#define FLOWBUF_ECN_P4

#include "headers.p4"

const bit<2> ECN_NOT_ECT = 0;
const bit<2> ECN_CE = 3;

control EcnMarking(inout parsed_headers_t hdr,
                   inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {

    bit<19> threshold = 0;
    bool marking = false;

    action mark_above(bit<19> packets) {
        threshold = packets;
        marking = true;
    }

    table ecn_thresholds {
        key = {
            std_meta.egress_port: exact @name("egress_port");
        }
        actions = {
            mark_above;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 512;
    }

    apply {
        if (hdr.ipv4.isValid() && hdr.ipv4.ecn != ECN_NOT_ECT) {
            ecn_thresholds.apply();
            if (marking && std_meta.enq_qdepth >= threshold) {
                hdr.ipv4.ecn = ECN_CE;
            }
        }
    }
}

#endif
