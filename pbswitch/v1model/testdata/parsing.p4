// SPDX-License-Identifier: Apache-2.0
// Engine test: the parser. What the parser saw is reported in a "report"
// header that ingress makes valid and the deparser emits first.
#include <core.p4>
#include <v1model.p4>

error { BadType }

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header tag_t {
    bit<8> more;
    bit<8> val;
}

header out_t {
    bit<32> parser_error;
    bit<8>  tags;      // how many tags were parsed
    bit<8>  last_val;  // the last tag's value
    bit<8>  path;      // which select case matched
    bit<8>  peek;      // the lookahead byte
}

struct headers_t {
    out_t    report;
    eth_t    eth;
    tag_t[3] tags;
}

struct meta_t {
    bit<8> path;
    bit<8> peek;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        verify(hdr.eth.type != 0xdead, error.BadType);
        meta.peek = pkt.lookahead<bit<8>>();
        transition select(hdr.eth.type, meta.peek) {
            (0x8100, _)           : parse_tag;
            (0x0800 &&& 0xff00, 8w0x45) : ipv4ish;
            (0x0900 &&& 0xff00, _) : skip;
            default               : accept;
        }
    }
    state parse_tag {
        meta.path = 1;
        pkt.extract(hdr.tags.next);
        transition select(hdr.tags.last.more) {
            0       : accept;
            default : parse_tag;
        }
    }
    state ipv4ish {
        meta.path = 2;
        transition accept;
    }
    state skip {
        meta.path = 3;
        pkt.advance(16);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.report.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.report.parser_error = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.report.parser_error = 1;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.report.parser_error = 3;
        } else if (sm.parser_error == error.BadType) {
            hdr.report.parser_error = 9;
        } else {
            hdr.report.parser_error = 255;
        }
        bit<8> n = 0;
        if (hdr.tags[0].isValid()) { n = n + 1; hdr.report.last_val = hdr.tags[0].val; }
        if (hdr.tags[1].isValid()) { n = n + 1; hdr.report.last_val = hdr.tags[1].val; }
        if (hdr.tags[2].isValid()) { n = n + 1; hdr.report.last_val = hdr.tags[2].val; }
        hdr.report.tags = n;
        hdr.report.path = meta.path;
        hdr.report.peek = meta.peek;
        sm.egress_spec = 2;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.report);
        pkt.emit(hdr.eth);
        pkt.emit(hdr.tags);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
