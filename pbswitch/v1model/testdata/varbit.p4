// SPDX-License-Identifier: Apache-2.0
// Engine test: variable-length (varbit) fields. The first header's mode
// picks what is parsed: IPv4 with options (checksum verified and updated
// over them), two headers whose varbit field sits between fixed fields, a
// stack of varbit headers, or a varbit header whose length in bits comes
// straight from the packet (the parser errors; mode 5 also removes and
// adds it again). Ingress reports what it
// saw in a "report" header the deparser emits first.
#include <core.p4>
#include <v1model.p4>

header report_t {
    bit<8>  perr;   // 0 none, 1 PacketTooShort, 3 StackOutOfBounds, 4 HeaderTooShort, 6 ParserInvalidArgument
    bit<8>  flags;  // see ingress
    bit<16> pktlen; // standard_metadata.packet_length in egress
    bit<16> hash;   // csum16 over mid1 (mode 2)
}

header top_t {
    bit<8> mode;
    bit<8> len;   // mode 2: mid1's varbit bytes; mode 4: raw's varbit bits
    bit<8> len2;  // mode 2: mid2's varbit bytes
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     totalLen;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     fragOffset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdrChecksum;
    bit<32>     srcAddr;
    bit<32>     dstAddr;
    varbit<320> options;
}

// The varbit field between two nibbles: its bytes do not start on a byte.
header mid_t {
    bit<4>     a;
    varbit<32> v;
    bit<4>     b;
}

header cp_t {
    bit<8>     tag;
    varbit<32> v;
}

header opt_t {
    bit<8>     len;
    varbit<16> data;
}

header raw_t {
    bit<8>     tag;
    varbit<24> v;
}

struct headers_t {
    report_t  report;
    top_t     top;
    ipv4_t    ipv4;
    mid_t     mid1;
    mid_t     mid2;
    cp_t      cp;
    opt_t[3]  opts;
    raw_t     raw;
}

struct meta_t {
    bit<8> vihl;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.top);
        transition select(hdr.top.mode) {
            1 : parse_ipv4;
            2 : parse_mid;
            3 : parse_opts;
            4 : parse_raw;
            5 : parse_raw;
            default : accept;
        }
    }
    state parse_ipv4 {
        meta.vihl = pkt.lookahead<bit<8>>();
        pkt.extract(hdr.ipv4, (bit<32>)(((bit<16>)meta.vihl & 0xf) * 32 - 160));
        transition accept;
    }
    state parse_mid {
        pkt.extract(hdr.mid1, (bit<32>)hdr.top.len * 8);
        pkt.extract(hdr.mid2, (bit<32>)hdr.top.len2 * 8);
        transition accept;
    }
    state parse_opts {
        pkt.extract(hdr.opts.next, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition select(hdr.opts.last.len) {
            0 : accept;
            default : parse_opts;
        }
    }
    state parse_raw {
        pkt.extract(hdr.raw, (bit<32>)hdr.top.len);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.options },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

// flags: 1 mid1.v == mid2.v; 2 mid1 == mid2 (whole headers); 4 checksum
// error; 8 opts[0] == opts[1] before the pop; 16 raw is valid.
control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.report.setValid();
        if (sm.parser_error == error.NoError) {
            hdr.report.perr = 0;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.report.perr = 1;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.report.perr = 3;
        } else if (sm.parser_error == error.HeaderTooShort) {
            hdr.report.perr = 4;
        } else if (sm.parser_error == error.ParserInvalidArgument) {
            hdr.report.perr = 6;
        } else {
            hdr.report.perr = 255;
        }
        bit<8> f = 0;
        if (sm.checksum_error == 1) {
            f = f | 4;
        }
        if (hdr.ipv4.isValid()) {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
        if (hdr.mid1.isValid() && hdr.mid2.isValid()) {
            if (hdr.mid1.v == hdr.mid2.v) {
                f = f | 1;
            }
            if (hdr.mid1 == hdr.mid2) {
                f = f | 2;
            }
            hash(hdr.report.hash, HashAlgorithm.csum16, 16w0, { hdr.mid1 }, 32w65536);
            // A varbit copy into a header made valid here: its width and
            // value; then mid2 goes (the packet shrinks by its size).
            hdr.cp.setValid();
            hdr.cp.tag = 0xc1;
            hdr.cp.v = hdr.mid1.v;
            hdr.mid2.setInvalid();
        }
        if (hdr.opts[0].isValid()) {
            if (hdr.opts[0] == hdr.opts[1]) {
                f = f | 8;
            }
            hdr.opts.pop_front(1);
            // The element the pop vacated holds what opts[0] held (BMv2
            // swaps): made valid again, its varbit field keeps that width.
            hdr.opts[2].setValid();
            // Never extracted: made valid, its varbit field is empty.
            hdr.cp.setValid();
            hdr.cp.tag = 0xc3;
        }
        if (hdr.raw.isValid()) {
            f = f | 16;
        }
        if (hdr.top.mode == 5) {
            // Removed and added again: BMv2's add_header zeroes the value
            // and keeps the width the parser gave it.
            hdr.raw.setInvalid();
            hdr.raw.setValid();
            hdr.raw.tag = 0x55;
        }
        hdr.report.flags = f;
        sm.egress_spec = 2;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.report.pktlen = (bit<16>)sm.packet_length;
    }
}

control CC(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.options },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.report);
        pkt.emit(hdr.top);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.mid1);
        pkt.emit(hdr.mid2);
        pkt.emit(hdr.cp);
        pkt.emit(hdr.opts);
        pkt.emit(hdr.raw);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
