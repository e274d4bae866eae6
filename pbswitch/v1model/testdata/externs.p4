// SPDX-License-Identifier: Apache-2.0
// Engine test: externs, primitives and control flow. The "cmd" header's op
// picks what ingress does (table dispatch, one action per op); results go
// into cmd's out fields, which are emitted back.
#include <core.p4>
#include <v1model.p4>

header cmd_t {
    bit<8>  op;
    bit<8>  arg;
    bit<16> idx;
    bit<32> val;
    bit<32> out1;
    bit<32> out2;
    bit<8>  flags;  // bit 0: an extra header follows
    bit<8>  hm;     // 1: hit_miss hit, 2: missed
    bit<8>  sw;     // what switch(action_run) chose
    bit<8>  kinds;  // which kinds entry matched
}

header extra_t {
    bit<32> x;
}

header stk_t {
    bit<8> v;
}

struct headers_t {
    cmd_t    cmd;
    extra_t  extra;
    stk_t[2] stk;
}

struct digest_t {
    bit<32> val;
    bit<16> idx;
}

struct meta_t {
    @field_list(1)
    bit<8> tag;
    bit<8> color;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.cmd);
        transition select(hdr.cmd.flags[0:0]) {
            1: parse_extra;
            default: parse_stk;
        }
    }
    state parse_extra {
        pkt.extract(hdr.extra);
        transition parse_stk;
    }
    state parse_stk {
        pkt.extract(hdr.stk[0]);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) { apply { } }

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    register<bit<32>>(16) reg;
    counter(16, CounterType.packets_and_bytes) ctr;
    meter(16, MeterType.packets) mtr;
    direct_counter(CounterType.packets) dispatch_ctr;
    direct_meter<bit<8>>(MeterType.packets) metered_mtr;

    action reg_write() { reg.write((bit<32>)hdr.cmd.idx, hdr.cmd.val); }
    action reg_read() { reg.read(hdr.cmd.out1, (bit<32>)hdr.cmd.idx); }
    // A read-modify-write in one action: atomic on BMv2 (and pbswitch)
    // against packets processed at the same time.
    action reg_add() {
        bit<32> v;
        reg.read(v, (bit<32>)hdr.cmd.idx);
        reg.write((bit<32>)hdr.cmd.idx, v + hdr.cmd.val);
        hdr.cmd.out1 = v + hdr.cmd.val;
    }
    action count_it() { ctr.count((bit<32>)hdr.cmd.idx); }
    action hashes() {
        hash(hdr.cmd.out1, HashAlgorithm.crc32, 32w0, { hdr.cmd.val }, 64w0x100000000);
        bit<16> c16;
        hash(c16, HashAlgorithm.crc16, 16w0, { hdr.cmd.val }, 32w0x10000);
        bit<16> cs;
        hash(cs, HashAlgorithm.csum16, 16w0, { hdr.cmd.val }, 32w0x10000);
        hdr.cmd.out2 = c16 ++ cs;
    }
    action meter_it() {
        bit<8> color;
        mtr.execute_meter((bit<32>)hdr.cmd.idx, color);
        hdr.cmd.out1 = (bit<32>)color;
    }
    action send_digest() { digest<digest_t>(1, { hdr.cmd.val, hdr.cmd.idx }); }
    action clone_it() {
        meta.tag = hdr.cmd.arg;
        hdr.cmd.kinds = 0x77; // the original leaves with it, the clone without
        clone_preserving_field_list(CloneType.I2E, 5, 1);
    }

    action resubmit_it() {
        meta.tag = hdr.cmd.arg;
        resubmit_preserving_field_list(1);
    }
    action truncate_it() { truncate(20); }
    action exit_it() {
        sm.egress_spec = 3;
        exit;
    }
    action assert_it() { assert(hdr.cmd.val == 7); }
    action add_extra() {
        hdr.extra.setValid();
        hdr.extra.x = 0xfeedf00d;
    }
    action remove_extra() { hdr.extra.setInvalid(); }
    action push() {
        hdr.stk.push_front(1);
        hdr.stk[0].setValid();
        hdr.stk[0].v = 0xaa;
    }
    action pop() { hdr.stk.pop_front(1); }
    action branch() {
        if (hdr.cmd.val > 100) {
            hdr.cmd.out1 = 1;
        } else {
            hdr.cmd.out1 = 2;
        }
    }
    action rand() { random(hdr.cmd.out1, 32w10, 32w20); }
    action drop() { mark_to_drop(sm); }
    action color_it() { metered_mtr.read(meta.color); }

    table dispatch {
        key = { hdr.cmd.op : exact; }
        actions = { reg_write; reg_read; count_it; hashes; meter_it; send_digest; clone_it;
                    resubmit_it; truncate_it; exit_it; assert_it; add_extra; remove_extra;
                    push; pop; branch; rand; drop; reg_add; NoAction; }
        counters = dispatch_ctr;
        default_action = NoAction();
    }

    table metered {
        key = { hdr.cmd.arg : exact; }
        actions = { color_it; NoAction; }
        meters = metered_mtr;
        default_action = NoAction();
    }

    action set_out2(bit<32> v) { hdr.cmd.out2 = v; }
    table consts {
        key = { hdr.cmd.arg : exact; }
        actions = { set_out2; }
        const entries = {
            0x10 : set_out2(0x1010);
            0x20 : set_out2(0x2020);
        }
        default_action = set_out2(0xdefa);
    }

    action a1() { }
    action a2() { }
    table sw_tbl {
        key = { hdr.cmd.arg : exact; }
        actions = { a1; a2; }
        default_action = a2();
    }

    table hit_miss {
        key = { hdr.cmd.idx : exact; }
        actions = { NoAction; }
        default_action = NoAction();
    }

    action kind(bit<8> k) { hdr.cmd.kinds = k; }
    table kinds {
        key = {
            hdr.cmd.idx : range;
            hdr.cmd.val : ternary;
            hdr.cmd.arg : optional;
        }
        actions = { kind; NoAction; }
        default_action = NoAction();
    }

    table lpm_tbl {
        key = { hdr.cmd.val : lpm; }
        actions = { kind; NoAction; }
        default_action = NoAction();
    }

    apply {
        sm.egress_spec = 2;
        if (sm.instance_type == 6) {
            // the resubmitted pass: the field list came back
            hdr.cmd.out1 = (bit<32>)meta.tag + 1;
            return;
        }
        if (sm.instance_type == 4) {
            // the recirculated pass: the field list came back
            hdr.cmd.out1 = (bit<32>)meta.tag + 100;
            return;
        }
        dispatch.apply();
        if (hdr.cmd.op == 30) {
            metered.apply();
            hdr.cmd.out2 = (bit<32>)meta.color;
        }
        if (hdr.cmd.op == 31) {
            consts.apply();
        }
        if (hdr.cmd.op == 32) {
            switch (sw_tbl.apply().action_run) {
                a1: { hdr.cmd.sw = 1; }
                a2: { hdr.cmd.sw = 2; }
            }
        }
        if (hdr.cmd.op == 33) {
            if (hit_miss.apply().hit) {
                hdr.cmd.hm = 1;
            } else {
                hdr.cmd.hm = 2;
            }
        }
        if (hdr.cmd.op == 34) {
            kinds.apply();
        }
        if (hdr.cmd.op == 35) {
            lpm_tbl.apply();
        }
        if (hdr.cmd.op == 36) {
            // counted after a header was added: BMv2 counts the ingress length
            hdr.extra.setValid();
            hdr.extra.x = 0x36363636;
            ctr.count((bit<32>)hdr.cmd.idx);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 1) {
            // the I2E clone: the tag survived, everything else was reset
            hdr.cmd.out2 = (bit<32>)meta.tag;
            hdr.cmd.out1 = (bit<32>)sm.egress_port;
        }
        if (hdr.cmd.op == 19 && sm.instance_type == 0) {
            meta.tag = hdr.cmd.arg;
            recirculate_preserving_field_list(1);
        }
        if (hdr.cmd.op == 20 && sm.instance_type == 0) {
            hdr.cmd.kinds = 0x20; // the E2E clone carries headers as egress left them
            meta.tag = 0x55;
            meta.color = 0x33;    // not in the field list: the clone sees 0
            clone_preserving_field_list(CloneType.E2E, 6, 1);
        }
        if (hdr.cmd.op == 36) {
            hdr.cmd.out2 = sm.packet_length; // grown by extra, as on BMv2
        }
        if (sm.instance_type == 2) {
            hdr.cmd.out2 = (bit<32>)meta.tag + 1;
            hdr.cmd.hm = meta.color;
            hdr.cmd.out1 = (bit<32>)sm.egress_port;
        }
    }
}

control CC(inout headers_t hdr, inout meta_t meta) { apply { } }

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cmd);
        pkt.emit(hdr.extra);
        pkt.emit(hdr.stk);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
