// SPDX-License-Identifier: Apache-2.0
// FB buffer admission (Apostolaki et al., "FB: A Flexible Buffer Management
// Scheme for Data Center Switches", §5.1): ingress admits a packet into its
// egress queue while the queue is shorter than
//     alpha_c * 1/N_p * 1/n * (B - occupied)
// with N_p the congested queues of its class's buffer priority and n the
// congested queues of its port (1/n stands for the queue's normalised
// dequeue rate, as in the paper's PISA design). The product is a shift of
// the remaining buffer that the controller pre-computes (fb_shift).
//
// State lives in registers that ingress and egress share; v1model allows
// that (Tofino does not, which is why the paper copies egress state to
// ingress with recirculated SYNC packets). So the updates are incremental,
// with no SYNC packets: ingress charges an admitted packet to its queue and
// the buffer, and egress writes the queue's true length (deq_qdepth, the
// packets behind it) back, releasing what left, including what the
// traffic manager itself dropped. Each read-modify-write is one action:
// BMv2 (and pbswitch) run an action holding its registers' locks.
// Lengths count packets, the unit of BMv2's queue depths.
#ifndef FLOWBUF_FB_P4
#define FLOWBUF_FB_P4

#include "headers.p4"

// Shared by ingress and egress.
register<bit<32>>(FB_QUEUE_CELLS) fb_qlen;     // packets FB counts per queue
register<bit<32>>(1) fb_occupied;              // packets in all FB queues
register<bit<32>>(2) fb_congested;             // congested queues per buffer priority
register<bit<32>>(FB_PORT_CELLS) fb_active;    // congested queues per port

control FbAdmission(inout parsed_headers_t hdr,
                    inout local_metadata_t meta,
                    inout standard_metadata_t std_meta) {

    // Packets FB refused, per queue.
    counter(FB_QUEUE_CELLS, CounterType.packets) fb_drops;

    // The paper's Routing table, after forwarding chose the port: the
    // packet's class (its queue), which alpha the class has, and its
    // buffer priority. A packet no entry takes (the CPU port, vports,
    // ports without FB) is left to the traffic manager.
    action fb_class(bit<3> queue, bit<8> alpha_id, bit<1> high) {
        std_meta.priority = queue;
        meta.fb.enabled = true;
        meta.fb.alpha_id = alpha_id;
        meta.fb.high = high;
    }

    table fb_classes {
        key = {
            std_meta.egress_spec: exact @name("egress_port");
            std_meta.priority: ternary @name("priority");
            hdr.ipv4.dscp: ternary @name("dscp");
        }
        actions = {
            fb_class;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 1024;
    }

    // B, the buffer FB shares out, in packets: the default action's
    // parameter, which the controller sets (a table rather than a
    // register because P4Runtime servers need not support register
    // writes: PI, under BMv2, does not). 0 until set: nothing admitted.
    action set_buffer(bit<32> packets) {
        meta.fb.buffer = packets;
    }

    table fb_buffer {
        key = { }
        actions = {
            set_buffer;
        }
        default_action = set_buffer(0);
        size = 1;
    }

    // One consistent read of what the admission weighs. An empty queue
    // counts itself among the congested ones: this packet would make it so.
    action fb_read() {
        meta.fb.idx = (bit<32>)(std_meta.egress_spec ++ std_meta.priority);
        fb_qlen.read(meta.fb.qlen, meta.fb.idx);
        bit<32> occupied;
        fb_occupied.read(occupied, 0);
        meta.fb.remaining = 0;
        if (meta.fb.buffer > occupied) {
            meta.fb.remaining = meta.fb.buffer - occupied;
        }
        fb_congested.read(meta.fb.congested, (bit<32>)meta.fb.high);
        fb_active.read(meta.fb.active, (bit<32>)std_meta.egress_spec);
        if (meta.fb.qlen == 0) {
            meta.fb.congested = meta.fb.congested + 1;
            meta.fb.active = meta.fb.active + 1;
        }
    }

    action set_shift(bit<8> left, bit<8> right) {
        meta.fb.left = left;
        meta.fb.right = right;
    }

    // alpha_c / (N_p * n) as a power of two, pre-computed by the
    // controller for each alpha and the ranges of N_p and n that round to
    // the same shift. No entry: the whole remaining buffer (complete
    // sharing), so a missing entry never drops what fits.
    table fb_shift {
        key = {
            meta.fb.alpha_id: exact @name("alpha_id");
            meta.fb.congested: range @name("congested");
            meta.fb.active: range @name("active");
        }
        actions = {
            set_shift;
        }
        const default_action = set_shift(0, 0);
        size = 4096;
    }

    // Charges an admitted packet to its queue and the buffer; a queue
    // that was empty becomes congested. (Targets run extern calls in an
    // action unconditionally, so the counts change by 0 or 1.)
    action fb_charge() {
        bit<32> qlen;
        bit<32> occupied;
        bit<32> count;
        fb_qlen.read(qlen, meta.fb.idx);
        fb_qlen.write(meta.fb.idx, qlen + 1);
        fb_occupied.read(occupied, 0);
        fb_occupied.write(0, occupied + 1);
        bit<32> became = 0;
        if (qlen == 0) {
            became = 1;
        }
        fb_congested.read(count, (bit<32>)meta.fb.high);
        fb_congested.write((bit<32>)meta.fb.high, count + became);
        fb_active.read(count, (bit<32>)std_meta.egress_spec);
        fb_active.write((bit<32>)std_meta.egress_spec, count + became);
        meta.fb.admitted = true;
    }

    action fb_drop() {
        mark_to_drop(std_meta);
        fb_drops.count(meta.fb.idx);
    }

    apply {
        if (std_meta.egress_spec != DROP_PORT && std_meta.mcast_grp == 0) {
            fb_classes.apply();
        }
        if (meta.fb.enabled) {
            fb_buffer.apply();
            fb_read();
            fb_shift.apply();
            bit<32> threshold = (meta.fb.remaining << meta.fb.left) >> meta.fb.right;
            if (meta.fb.qlen >= threshold) {
                fb_drop();
            } else {
                fb_charge();
            }
        }
    }
}

control FbRelease(inout parsed_headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {

    // The packet left its queue: the queue now holds deq_qdepth packets.
    // What FB counted beyond that left the buffer (this packet, and any
    // the traffic manager dropped); a queue that emptied is no longer
    // congested (and one FB had missed is).
    action fb_release() {
        bit<32> counted;
        bit<32> queued = (bit<32>)std_meta.deq_qdepth;
        bit<32> occupied;
        bit<32> count;
        fb_qlen.read(counted, meta.fb.idx);
        fb_qlen.write(meta.fb.idx, queued);
        fb_occupied.read(occupied, 0);
        occupied = occupied + queued;
        if (occupied > counted) {
            occupied = occupied - counted;
        } else {
            occupied = 0;
        }
        fb_occupied.write(0, occupied);
        bit<32> became = 0;   // congested now, and FB had it empty
        bit<32> emptied = 0;  // empty now, and FB had it congested
        if (counted == 0 && queued != 0) {
            became = 1;
        }
        if (counted != 0 && queued == 0) {
            emptied = 1;
        }
        fb_congested.read(count, (bit<32>)meta.fb.high);
        count = count + became;
        if (count < emptied) {
            count = emptied;  // never below 0
        }
        fb_congested.write((bit<32>)meta.fb.high, count - emptied);
        fb_active.read(count, (bit<32>)std_meta.egress_port);
        count = count + became;
        if (count < emptied) {
            count = emptied;
        }
        fb_active.write((bit<32>)std_meta.egress_port, count - emptied);
    }

    apply {
        if (meta.fb.admitted) {
            fb_release();
        }
    }
}

#endif
