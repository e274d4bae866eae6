// SPDX-License-Identifier: Apache-2.0
// Engine test: constructs p4c's STF samples found the engine getting wrong
// or refusing, one regression each (see regressions_test.go).
#include <core.p4>
#include <v1model.p4>

header a_t { bit<8> tag; bit<8> v; }
header b_t { bit<16> w; }
header_union u_t { a_t a; b_t b; }

header flags_t {
    bit<7> x;
    bool   on;       // p4c declares a bool field as [name, 1, 0]
}

header s_t { bit<8> f; }

header res_t {
    bit<8> switched;  // what switch (value) chose
    bit<8> ternary;   // which const ternary entry matched
    bit<8> last_f;    // the stack's last entry, read in the parser
    bit<8> copied;    // the stack copied in the parser
}

struct headers_t {
    flags_t  flags;
    u_t      u;
    s_t[2]   s1;
    s_t[2]   s2;
    res_t    res;
}

struct meta_t {
    bit<8> last_f;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.flags);
        pkt.extract(hdr.s1.next);
        pkt.extract(hdr.s1.next);
        meta.last_f = hdr.s1.last.f;  // a stack_field wrapped in an expression
        hdr.s2 = hdr.s1;              // a parser primitive: assign_header_stack
        transition select(pkt.lookahead<bit<16>>()) {
            0xaaaa: parse_a;
            default: accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action t1() { hdr.res.ternary = 1; }
    action t2() { hdr.res.ternary = 2; }
    table tern {
        key = { hdr.flags.x : ternary; }
        actions = { t1; t2; NoAction; }
        const entries = {
            0x11 &&& 0x0f : t1();   // BMv2 ignores key bits outside the mask
            0x02 &&& 0x03 : t2();
        }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        if (sm.parser_error != error.NoError) {
            mark_to_drop(sm);
            return;
        }
        hdr.res.setValid();
        switch (hdr.flags.x) {       // p4c makes a table only the target sees
            1: { hdr.res.switched = 10; }
            2: { hdr.res.switched = 20; }
            default: { hdr.res.switched = 99; }
        }
        tern.apply();
        hdr.res.last_f = meta.last_f;
        hdr.res.copied = hdr.s2[1].f;
        if (hdr.flags.on) {
            hdr.u.b.setValid();      // makes u.a invalid: one member at a time
            hdr.u.b.w = 0xbbbb;
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.flags);
        pkt.emit(hdr.u);
        pkt.emit(hdr.s1);
        pkt.emit(hdr.res);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
