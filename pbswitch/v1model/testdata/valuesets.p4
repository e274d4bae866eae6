// SPDX-License-Identifier: Apache-2.0
// Engine test: parser value sets. Which select case the parser took is
// reported in a "report" header that ingress makes valid and the deparser
// emits first.
#include <core.p4>
#include <v1model.p4>

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header tag_t {
    bit<8> kind;
    bit<4> ver;
    bit<4> flags;
    bit<8> val;
}

header out_t {
    bit<8> path;   // which select case matched
    bit<8> val;    // the tag's value, when parsed
}

struct headers_t {
    out_t report;
    eth_t eth;
    tag_t tag;
}

struct meta_t {
    bit<8> path;
}

// A struct value set: one match field per struct field.
struct kind_ver_t {
    bit<8> kind;
    bit<4> ver;
}

// Wider than 64 bits: the engine's wide select key.
struct macs_t {
    bit<48> dst;
    bit<48> src;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tag_types;
    value_set<kind_ver_t>(2) kind_vers;
    value_set<macs_t>(2) mac_pairs;

    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            0x0800    : ipv4ish;
            tag_types : tagged;
            default   : macs;
        }
    }
    state ipv4ish {
        meta.path = 1;
        transition accept;
    }
    state tagged {
        meta.path = 2;
        pkt.extract(hdr.tag);
        transition select(hdr.tag.kind, hdr.tag.ver) {
            kind_vers : known_tag;
            default   : accept;
        }
    }
    state known_tag {
        meta.path = 3;
        transition accept;
    }
    state macs {
        transition select(hdr.eth.dst, hdr.eth.src) {
            mac_pairs : pair;
            default   : accept;
        }
    }
    state pair {
        meta.path = 4;
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.report.setValid();
        hdr.report.path = meta.path;
        hdr.report.val = 0;
        if (hdr.tag.isValid()) {
            hdr.report.val = hdr.tag.val;
        }
        sm.egress_spec = 2;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.report);
        pkt.emit(hdr.eth);
        pkt.emit(hdr.tag);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
