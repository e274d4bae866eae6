// SPDX-License-Identifier: Apache-2.0
// Engine test: action profiles and action selectors. A plain action
// profile (indirect table: members only) picks the egress port by the
// destination; an action selector (members and groups) spreads flows by a
// hash of the source and the flow id. What ran is reported in a "report"
// header that ingress makes valid and the deparser emits first.
#include <core.p4>
#include <v1model.p4>

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header flow_t {
    bit<32> id;
}

header out_t {
    bit<8>  member;   // the member's tag (set_port) or 0
    bit<8>  steered;  // the selector member's tag or 0
    bit<8>  after;    // 1: the node after the selector table ran
}

struct headers_t {
    out_t  report;
    eth_t  eth;
    flow_t flow;
}

struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        pkt.extract(hdr.flow);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set_port(bit<9> port, bit<8> tag) {
        sm.egress_spec = port;
        hdr.report.member = tag;
    }
    action steer(bit<8> tag) {
        hdr.report.steered = tag;
    }
    action drop() {
        mark_to_drop(sm);
    }

    action_profile(8) ports_ap;
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) spread_sel;

    table ports {
        key = { hdr.eth.dst : exact; }
        actions = { set_port; drop; }
        implementation = ports_ap;
        size = 16;
    }

    table spread {
        key = {
            hdr.eth.type : exact;
            hdr.eth.src  : selector;
            hdr.flow.id  : selector;
        }
        actions = { steer; NoAction; }
        implementation = spread_sel;
        size = 16;
    }

    apply {
        hdr.report.setValid();
        hdr.report.member = 0;
        hdr.report.steered = 0;
        hdr.report.after = 0;
        sm.egress_spec = 2;
        ports.apply();
        spread.apply();
        hdr.report.after = 1;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.report);
        pkt.emit(hdr.eth);
        pkt.emit(hdr.flow);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
