// SPDX-License-Identifier: Apache-2.0
// Congestion detection and avoidance in the data plane (Turkovic et al.,
// "Fast network congestion detection and avoidance using P4").
//
// A latency-critical flow (cc_flows) has two path slots (cc_paths); a
// per-flow register says which one it takes. Egress measures each of its
// packets' queuing delay (deq_timedelta) and processing delay (ingress to
// egress, less the queuing) against the flow's thresholds t_q and t_p;
// after m consecutive packets over either, the flow is congested here:
//   - when the other slot holds a path (the controller's pre-installed
//     backup), the flow takes it from its next packet on, with no
//     controller round trip;
//   - otherwise the switch sends a congestion notification (Ethernet +
//     cc_notify_t) back out of the port the packet came in by; the switch
//     before it switches the flow if it has a backup for it, or else sends
//     the notification on upstream the way the flow came, so it reaches
//     the first switch that can move the flow. A notification that comes
//     back along a path the flow no longer takes is stale and dropped.
// The next packet of a switched flow raises a digest (flow, switch, slot,
// delays) that tells the controller, which then installs a new backup in
// the slot the flow left; where the controller takes no digests (ONOS 2.7),
// the switch also sends it the same as a packet-in (cc_report_t). Delays
// are microseconds, v1model's unit.
//
// A flow's register cells belong to its registration: its cc_flows entry
// carries a generation, and the first packet with a generation the cells
// were not written for starts them from zero, so a reused index inherits
// nothing and the controller never writes a register.
//
// Ordered switch-over (cc_ordered): the first packet of an ordered flow
// that leaves by another port than the flow's previous packet sends an end
// marker (Ethernet + cc_marker_t) down the port the flow left, behind that
// path's last packets: once per switch-over. Every switch forwards a
// marker as it forwards its flow, except the merge switch, which steers it
// into the buffer its cc_marker_sinks entry names (the trigger that
// releases the packets the backup path brought meanwhile).
#ifndef FLOWBUF_CONGESTION_P4
#define FLOWBUF_CONGESTION_P4

#include "headers.p4"

// Shared by ingress and egress.
register<bit<1>>(CC_FLOWS) cc_slot;       // the slot each flow takes
register<bit<32>>(CC_FLOWS) cc_over;      // its consecutive packets over a threshold
register<bit<1>>(CC_FLOWS) cc_flipped;    // switched, not yet reported by a digest
register<bit<32>>(CC_FLOWS) cc_queue_us;  // the delays that made it switch
register<bit<32>>(CC_FLOWS) cc_proc_us;
register<bit<1>>(CC_FLOWS) cc_in_known;   // a packet of the flow came in here
register<port_num_t>(CC_FLOWS) cc_in_port; // the port it came in by (where notifications go on)
register<bit<1>>(CC_FLOWS) cc_out_known;  // an ordered flow's packet left here
register<port_num_t>(CC_FLOWS) cc_out_port; // by this port (a change sends a marker)
register<bit<32>>(CC_FLOWS) cc_markers;   // markers sent for the flow
register<bit<32>>(CC_FLOWS) cc_generation; // the registration the cells above belong to

struct cc_digest_t {
    cc_flow_t flow;
    bit<16>   switch_id;
    bit<1>    slot;       // the slot the flow takes now
    bit<32>   queue_us;
    bit<32>   proc_us;
}

control CcIngress(inout parsed_headers_t hdr,
                  inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {

    // This switch's id in digests and notifications, and whether its
    // switch-overs also go to the controller as packet-ins: the default
    // action's parameters, set by the controller.
    action set_switch_id(bit<16> id, bit<1> report) {
        meta.cc.switch_id = id;
        meta.cc.report_to_cpu = report;
    }

    table cc_switch {
        key = { }
        actions = {
            set_switch_id;
        }
        default_action = set_switch_id(0, 0);
        size = 1;
    }

    action track(cc_flow_t flow, bit<32> generation) {
        meta.cc.tracked = true;
        meta.cc.flow = flow;
        meta.cc.generation = generation;
    }

    table cc_flows {
        key = {
            hdr.ipv4.src_addr: ternary @name("ipv4_src");
            hdr.ipv4.dst_addr: ternary @name("ipv4_dst");
            meta.ip_proto: ternary @name("ip_proto");
            meta.l4_src_port: ternary @name("l4_src_port");
            meta.l4_dst_port: ternary @name("l4_dst_port");
        }
        actions = {
            track;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = CC_FLOWS;
    }

    action read_generation() {
        cc_generation.read(meta.cc.stored_generation, (bit<32>)meta.cc.flow);
    }

    // The flow's first packet since it was registered (again): its cells
    // start from zero.
    action start_generation() {
        bit<32> i = (bit<32>)meta.cc.flow;
        cc_slot.write(i, 0);
        cc_over.write(i, 0);
        cc_flipped.write(i, 0);
        cc_queue_us.write(i, 0);
        cc_proc_us.write(i, 0);
        cc_in_known.write(i, 0);
        cc_in_port.write(i, 0);
        cc_out_known.write(i, 0);
        cc_out_port.write(i, 0);
        cc_markers.write(i, 0);
        cc_generation.write(i, meta.cc.generation);
    }

    // Which slot the flow takes.
    action read_slot() {
        cc_slot.read(meta.cc.slot, (bit<32>)meta.cc.flow);
        meta.cc.other_slot = ~meta.cc.slot;
    }

    // Whether the flow switched since the last digest (read and cleared in
    // one action, so one digest per switch), and the delays that made it.
    action read_switch() {
        cc_flipped.read(meta.cc.flipped, (bit<32>)meta.cc.flow);
        cc_flipped.write((bit<32>)meta.cc.flow, 0);
        cc_queue_us.read(meta.cc.queue_us, (bit<32>)meta.cc.flow);
        cc_proc_us.read(meta.cc.proc_us, (bit<32>)meta.cc.flow);
    }

    // Where the flow's packets come in: a notification for it that this
    // switch cannot act on goes on upstream from there.
    action remember_in_port() {
        cc_in_known.write((bit<32>)meta.cc.flow, 1);
        cc_in_port.write((bit<32>)meta.cc.flow, std_meta.ingress_port);
    }

    action read_in_port() {
        cc_in_known.read(meta.cc.in_known, (bit<32>)meta.cc.flow);
        cc_in_port.read(meta.cc.in_port, (bit<32>)meta.cc.flow);
    }

    action forward(port_num_t port, mac_addr_t dmac) {
        std_meta.egress_spec = port;
        hdr.ethernet.dst_addr = dmac;
        meta.forwarded = true;
    }

    // The flow's paths: (flow, slot) -> next hop.
    table cc_paths {
        key = {
            meta.cc.flow: exact @name("flow");
            meta.cc.slot: exact @name("slot");
        }
        actions = {
            forward;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 2 * CC_FLOWS;
    }

    action alternate() {
        meta.cc.has_alternate = true;
    }

    // An ordered flow's packet: when it leaves by another port than the
    // flow's last packet, an end marker goes out of that one (egress
    // clones it).
    action check_out_port() {
        bit<1> known;
        cc_out_known.read(known, (bit<32>)meta.cc.flow);
        port_num_t last;
        cc_out_port.read(last, (bit<32>)meta.cc.flow);
        bit<32> sent;
        cc_markers.read(sent, (bit<32>)meta.cc.flow);
        meta.cc.marker = false;
        if (known == 1 && last != std_meta.egress_spec) {
            meta.cc.marker = true;
            sent = sent + 1;
        }
        meta.cc.marker_seq = sent;
        meta.cc.marker_port = last;
        cc_markers.write((bit<32>)meta.cc.flow, sent);
        cc_out_known.write((bit<32>)meta.cc.flow, 1);
        cc_out_port.write((bit<32>)meta.cc.flow, std_meta.egress_spec);
    }

    // Flows whose switch-overs send an end marker (set on the switch that
    // can move them).
    table cc_ordered {
        key = {
            meta.cc.flow: exact @name("flow");
        }
        actions = {
            check_out_port;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = CC_FLOWS;
    }

    action to_sink(port_num_t port, buffer_tag_t tag) {
        std_meta.egress_spec = port;
        meta.buffer_tag = tag;
        meta.forwarded = true;
    }

    // The merge switch of an ordered flow: its end markers go into this
    // (logical) vport rather than on along the flow's path.
    table cc_marker_sinks {
        key = {
            meta.cc.flow: exact @name("flow");
        }
        actions = {
            to_sink;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = CC_FLOWS;
    }

    // The same (flow, slot) pairs as cc_paths: whether the slot the flow
    // does not take holds a path (a table is applied once per packet, so
    // cc_paths cannot answer for both slots).
    table cc_alternates {
        key = {
            meta.cc.flow: exact @name("flow");
            meta.cc.other_slot: exact @name("slot");
        }
        actions = {
            alternate;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = 2 * CC_FLOWS;
    }

    // A notification about the path the flow takes, at a switch that can
    // move it: it takes the other slot, unless a packet already moved it
    // (the slot read is still the one the notification found). A switch
    // not reported yet stays to be reported, with its delays.
    action switch_on_notification() {
        bit<1> slot;
        cc_slot.read(slot, (bit<32>)meta.cc.flow);
        bit<1> pending;
        cc_flipped.read(pending, (bit<32>)meta.cc.flow);
        bit<32> queue_us;
        cc_queue_us.read(queue_us, (bit<32>)meta.cc.flow);
        bit<32> proc_us;
        cc_proc_us.read(proc_us, (bit<32>)meta.cc.flow);
        bit<1> flip = 0;
        if (slot == meta.cc.slot) {
            flip = 1;
            queue_us = hdr.cc_notify.queue_us;
            proc_us = hdr.cc_notify.proc_us;
        }
        cc_slot.write((bit<32>)meta.cc.flow, slot ^ flip);
        cc_flipped.write((bit<32>)meta.cc.flow, pending | flip);
        cc_queue_us.write((bit<32>)meta.cc.flow, queue_us);
        cc_proc_us.write((bit<32>)meta.cc.flow, proc_us);
    }

    // A copy of this packet goes to the controller, where egress makes it
    // a switch-over report. It shares the CPU clone session and field list
    // with the ACL's clone_to_cpu: whichever clone call comes last, the copy
    // is the report.
    action report_switch_over() {
        meta.cc.report = true;
        meta.cpu_ingress_port = std_meta.ingress_port;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, CLONE_FL_CPU);
    }

    apply {
        cc_switch.apply();
        bool notification = hdr.cc_notify.isValid();
        bool marker = hdr.cc_marker.isValid();
        if (notification) {
            // From the switch after this one; consumed here either way.
            meta.cc.flow = hdr.cc_notify.flow;
        } else if (marker) {
            // An end marker: into the merge switch's sink, else on the way
            // the flow goes here (below); never anywhere else.
            meta.cc.flow = hdr.cc_marker.flow;
            if (cc_marker_sinks.apply().hit) {
                exit;
            }
        } else if (hdr.ipv4.isValid()) {
            if (cc_flows.apply().hit) {
                read_generation();
                if (meta.cc.stored_generation != meta.cc.generation) {
                    start_generation();
                }
            }
        }
        if (notification || marker || meta.cc.tracked) {
            read_slot();
            cc_alternates.apply();
            if (!notification && !marker) {
                remember_in_port();
                read_switch();
            }
            // The current path's next hop (one apply: a notification's
            // as well, to compare with the port it came in by; it keeps
            // its own Ethernet header if it goes on).
            mac_addr_t notification_dst = hdr.ethernet.dst_addr;
            cc_paths.apply();
            if (marker) {
                if (!meta.forwarded) {
                    mark_to_drop(std_meta);
                }
                exit;
            }
            if (notification) {
                // Only a notification that came back along the flow's
                // current path counts: one from the path it left (sent
                // for packets queued there before the move) is stale.
                if (meta.forwarded && std_meta.ingress_port == std_meta.egress_spec) {
                    if (meta.cc.has_alternate) {
                        switch_on_notification();
                    } else {
                        // No backup here: on upstream, the way the flow came.
                        read_in_port();
                        if (meta.cc.in_known == 1) {
                            std_meta.egress_spec = meta.cc.in_port;
                            hdr.ethernet.dst_addr = notification_dst;
                            exit;
                        }
                    }
                }
                mark_to_drop(std_meta);
                exit;
            }
            if (meta.forwarded) {
                cc_ordered.apply();
            }
            if (meta.cc.flipped == 1) {
                digest<cc_digest_t>(1, { meta.cc.flow, meta.cc.switch_id, meta.cc.slot,
                                         meta.cc.queue_us, meta.cc.proc_us });
                if (meta.cc.report_to_cpu == 1) {
                    report_switch_over();
                }
            }
        }
    }
}

control CcEgress(inout parsed_headers_t hdr,
                 inout local_metadata_t meta,
                 inout standard_metadata_t std_meta) {

    // The flow's thresholds; the controller checks them before it writes.
    action limits(bit<32> queue_us, bit<32> proc_us, bit<32> m) {
        meta.cc.queue_limit_us = queue_us;
        meta.cc.proc_limit_us = proc_us;
        meta.cc.m = m;
    }

    table cc_thresholds {
        key = {
            meta.cc.flow: exact @name("flow");
        }
        actions = {
            limits;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = CC_FLOWS;
    }

    // This packet's delays, and the flow's run of packets over a threshold
    // (reset by one under both, and once it reaches m).
    action measure() {
        meta.cc.queue_us = (bit<32>)std_meta.deq_timedelta;
        bit<32> since = (bit<32>)(std_meta.egress_global_timestamp
                                  - std_meta.ingress_global_timestamp);
        meta.cc.proc_us = 0;
        if (since > meta.cc.queue_us) {
            meta.cc.proc_us = since - meta.cc.queue_us;
        }
        bit<32> run;
        cc_over.read(run, (bit<32>)meta.cc.flow);
        if (meta.cc.queue_us >= meta.cc.queue_limit_us
                || meta.cc.proc_us >= meta.cc.proc_limit_us) {
            run = run + 1;
        } else {
            run = 0;
        }
        meta.cc.congested = false;
        if (run >= meta.cc.m) {
            meta.cc.congested = true;
            run = 0;
        }
        cc_over.write((bit<32>)meta.cc.flow, run);
    }

    // Congested, with a backup here: the next packets take the other slot
    // (unless one of them already switched the flow since this one left
    // ingress). A switch not reported yet stays to be reported, with the
    // delays that made it: a later packet queued on the path the flow left
    // must not clear it (its digest was lost that way).
    action switch_over() {
        bit<1> slot;
        cc_slot.read(slot, (bit<32>)meta.cc.flow);
        bit<1> pending;
        cc_flipped.read(pending, (bit<32>)meta.cc.flow);
        bit<32> queue_us;
        cc_queue_us.read(queue_us, (bit<32>)meta.cc.flow);
        bit<32> proc_us;
        cc_proc_us.read(proc_us, (bit<32>)meta.cc.flow);
        bit<1> flip = 0;
        if (slot == meta.cc.slot) {
            flip = 1;
            queue_us = meta.cc.queue_us;
            proc_us = meta.cc.proc_us;
        }
        cc_slot.write((bit<32>)meta.cc.flow, slot ^ flip);
        cc_flipped.write((bit<32>)meta.cc.flow, pending | flip);
        cc_queue_us.write((bit<32>)meta.cc.flow, queue_us);
        cc_proc_us.write((bit<32>)meta.cc.flow, proc_us);
    }

    // Congested, no backup here: a copy of this packet goes back out of the
    // port it came in by, where egress makes it a notification.
    action notify_upstream() {
        meta.cc.notify = true;
        clone_preserving_field_list(CloneType.E2E,
                                    CC_NOTIFY_SESSION_BASE + (bit<32>)std_meta.ingress_port,
                                    CLONE_FL_CC);
    }

    action make_notification() {
        hdr.cc_notify.setValid();
        hdr.cc_notify.flow = meta.cc.flow;
        hdr.cc_notify.switch_id = meta.cc.switch_id;
        hdr.cc_notify.queue_us = meta.cc.queue_us;
        hdr.cc_notify.proc_us = meta.cc.proc_us;
        hdr.ethernet.ether_type = ETHERTYPE_CC_NOTIFY;
        hdr.vlan.setInvalid();
        hdr.ipv4.setInvalid();
        hdr.ipv6.setInvalid();
        hdr.tcp.setInvalid();
        hdr.udp.setInvalid();
        hdr.icmp.setInvalid();
        hdr.gtpu.setInvalid();
        hdr.gtpu_options.setInvalid();
        hdr.gtpu_psc.setInvalid();
        hdr.inner_ipv4.setInvalid();
        hdr.inner_tcp.setInvalid();
        hdr.inner_udp.setInvalid();
        hdr.inner_icmp.setInvalid();
        // Ethernet and the notification: the payload is not sent back.
        truncate(ETH_HDR_BYTES + 12);
    }

    // The flow left the port its last packet took: a copy of this packet
    // goes out of that one, where egress makes it an end marker.
    action send_marker() {
        clone_preserving_field_list(CloneType.E2E,
                                    CC_MARKER_SESSION_BASE + (bit<32>)meta.cc.marker_port,
                                    CLONE_FL_CC);
    }

    action make_marker() {
        hdr.cc_marker.setValid();
        hdr.cc_marker.flow = meta.cc.flow;
        hdr.cc_marker.switch_id = meta.cc.switch_id;
        hdr.cc_marker.seq = meta.cc.marker_seq;
        hdr.ethernet.ether_type = ETHERTYPE_CC_MARKER;
        hdr.vlan.setInvalid();
        hdr.ipv4.setInvalid();
        hdr.ipv6.setInvalid();
        hdr.tcp.setInvalid();
        hdr.udp.setInvalid();
        hdr.icmp.setInvalid();
        hdr.gtpu.setInvalid();
        hdr.gtpu_options.setInvalid();
        hdr.gtpu_psc.setInvalid();
        hdr.inner_ipv4.setInvalid();
        hdr.inner_tcp.setInvalid();
        hdr.inner_udp.setInvalid();
        hdr.inner_icmp.setInvalid();
        // Ethernet and the marker: the payload does not go down the old path.
        truncate(ETH_HDR_BYTES + 8);
    }

    action make_report() {
        hdr.cc_report.setValid();
        hdr.cc_report.flow = meta.cc.flow;
        hdr.cc_report.switch_id = meta.cc.switch_id;
        hdr.cc_report.queue_us = meta.cc.queue_us;
        hdr.cc_report.proc_us = meta.cc.proc_us;
        hdr.cc_report._pad = 0;
        hdr.cc_report.slot = meta.cc.slot;
        hdr.ethernet.ether_type = ETHERTYPE_CC_NOTIFY;
        hdr.buffer_tag.setInvalid();
        hdr.vlan.setInvalid();
        hdr.ipv4.setInvalid();
        hdr.ipv6.setInvalid();
        hdr.tcp.setInvalid();
        hdr.udp.setInvalid();
        hdr.icmp.setInvalid();
        hdr.gtpu.setInvalid();
        hdr.gtpu_options.setInvalid();
        hdr.gtpu_psc.setInvalid();
        hdr.inner_ipv4.setInvalid();
        hdr.inner_tcp.setInvalid();
        hdr.inner_udp.setInvalid();
        hdr.inner_icmp.setInvalid();
        // packet_in, Ethernet and the report: the payload stays behind.
        truncate(PACKET_IN_HDR_BYTES + ETH_HDR_BYTES + 13);
    }

    apply {
        if (std_meta.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE && meta.cc.report) {
            make_report();
        } else if (std_meta.instance_type == PKT_INSTANCE_TYPE_EGRESS_CLONE) {
            if (meta.cc.marker) {
                make_marker();
            } else if (meta.cc.notify) {
                make_notification();
            }
        } else {
            // One clone per packet (v1model): a packet that sends a marker
            // sends no notification.
            if (meta.cc.marker) {
                send_marker();
            }
            if (meta.cc.tracked && cc_thresholds.apply().hit) {
                measure();
                if (meta.cc.congested) {
                    if (meta.cc.has_alternate) {
                        switch_over();
                    } else if (!meta.cc.marker) {
                        notify_upstream();
                    }
                }
            }
        }
    }
}

#endif
