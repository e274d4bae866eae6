// SPDX-License-Identifier: Apache-2.0
// Engine test: what programs from outside FlowBuf use and BMv2 runs.
//  - a @hidden table: p4c leaves it out of the p4info and keeps its const
//    entries and default action in the JSON; it runs, no controller sees it;
//  - @p4runtime_translation types: the controller names tport_t values in
//    32 bits (the p4info), the data plane holds 16 (the JSON);
//  - an egress counter by port: egress runs for a port with no interface.
#include <core.p4>
#include <v1model.p4>

@p4runtime_translation("flowbuf.test/tport", 32)
type bit<16> tport_t;

const bit<16> TYPE_TAGGED = 0x88b6;

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

// A tag naming a port in the data plane's numbers.
header tag_t {
    bit<16> port;
    bit<16> type;
}

struct headers_t {
    eth_t eth;
    tag_t tag;
}

struct meta_t {
    tport_t tport;
    bit<8>  cls;
}

parser ParserImpl(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            TYPE_TAGGED: parse_tag;
            default: accept;
        }
    }
    state parse_tag {
        pkt.extract(hdr.tag);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action set_class(bit<8> cls) {
        meta.cls = cls;
    }

    // Classifies by ethertype; only what it decides is visible (by_class).
    @hidden
    table classify {
        key = { hdr.eth.type : exact; }
        actions = { set_class; }
        const entries = {
            0x0800 : set_class(1);
            0x86dd : set_class(2);
        }
        const default_action = set_class(3);
    }

    action to_port(bit<9> port) {
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table by_class {
        key = { meta.cls : exact; }
        actions = { to_port; drop; }
        default_action = drop();
    }

    action to_tport(tport_t port) {
        sm.egress_spec = (bit<9>)(bit<16>)port;
    }

    // Keyed by and acting on translated values.
    table by_tport {
        key = { meta.tport : exact; }
        actions = { to_tport; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.tag.isValid()) {
            meta.tport = (tport_t)hdr.tag.port;
            by_tport.apply();
        } else {
            classify.apply();
            by_class.apply();
        }
    }
}

control EgressImpl(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    // Every copy egress runs for, by its port: on BMv2 a copy for a port
    // with no interface counts here and is dropped at transmit.
    counter(512, CounterType.packets) egress_packets;

    apply {
        egress_packets.count((bit<32>)sm.egress_port);
    }
}

control ComputeImpl(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DeparserImpl(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.tag);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(),
         DeparserImpl()) main;
