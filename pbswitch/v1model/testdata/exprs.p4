// SPDX-License-Identifier: Apache-2.0
// Engine test: the expression language. Ingress reads operands from the
// packet's "ops" header and writes results into its "res" header, which is
// emitted back, so each result can be read off the output packet.
#include <core.p4>
#include <v1model.p4>

header ops_t {
    bit<8>  a;
    bit<8>  b;
    int<8>  sa;
    int<8>  sb;
    bit<16> w;
    bit<4>  n;
    bit<4>  pad;
    bit<128> big1;
    bit<128> big2;
}

header res_t {
    bit<8>  add;
    bit<8>  sub;
    bit<8>  mul;
    bit<8>  shl;
    bit<8>  shr;
    bit<8>  and_;
    bit<8>  or_;
    bit<8>  xor_;
    bit<8>  not_;
    bit<8>  cmp;      // bit 0: a < b, bit 1: sa < sb, bit 2: a == b, bit 3: sa >= sb, bit 4: sa - sb < 0
    int<8>  sshr;     // sa >> 1 (arithmetic)
    bit<8>  mux;      // a > b ? a : b
    bit<16> concat;   // a ++ b
    bit<4>  slice;    // w[11:8]
    bit<4>  pad;
    bit<8>  satadd;   // a |+| b
    int<8>  ssatsub;  // sa |-| sb
    bit<16> widen;    // (bit<16>) sa (sign-extended through int<16>)
    bit<128> bigsum;
    bit<8>  bigcmp;   // big1 > big2
    bit<32> shlvar;   // 1 << n
}

struct headers_t {
    ops_t ops;
    res_t res;
}

struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ops);
        pkt.extract(hdr.res);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.res.add = hdr.ops.a + hdr.ops.b;
        hdr.res.sub = hdr.ops.a - hdr.ops.b;
        hdr.res.mul = hdr.ops.a * hdr.ops.b;
        hdr.res.shl = hdr.ops.a << 3;
        hdr.res.shr = hdr.ops.a >> 2;
        hdr.res.and_ = hdr.ops.a & hdr.ops.b;
        hdr.res.or_ = hdr.ops.a | hdr.ops.b;
        hdr.res.xor_ = hdr.ops.a ^ hdr.ops.b;
        hdr.res.not_ = ~hdr.ops.a;
        bit<8> cmp = 0;
        if (hdr.ops.a < hdr.ops.b) { cmp = cmp | 1; }
        if (hdr.ops.sa < hdr.ops.sb) { cmp = cmp | 2; }
        if (hdr.ops.a == hdr.ops.b) { cmp = cmp | 4; }
        if (hdr.ops.sa >= hdr.ops.sb) { cmp = cmp | 8; }
        if (hdr.ops.sa - hdr.ops.sb < 0) { cmp = cmp | 16; } // int<8> wraps before the test
        hdr.res.cmp = cmp;
        hdr.res.sshr = hdr.ops.sa >> 1;
        hdr.res.mux = hdr.ops.a > hdr.ops.b ? hdr.ops.a : hdr.ops.b;
        hdr.res.concat = hdr.ops.a ++ hdr.ops.b;
        hdr.res.slice = hdr.ops.w[11:8];
        hdr.res.satadd = hdr.ops.a |+| hdr.ops.b;
        hdr.res.ssatsub = hdr.ops.sa |-| hdr.ops.sb;
        hdr.res.widen = (bit<16>)(int<16>)hdr.ops.sa;
        hdr.res.bigsum = hdr.ops.big1 + hdr.ops.big2;
        hdr.res.bigcmp = hdr.ops.big1 > hdr.ops.big2 ? 8w1 : 8w0;
        hdr.res.shlvar = (bit<32>)1 << hdr.ops.n;
        sm.egress_spec = 2;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ops);
        pkt.emit(hdr.res);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
