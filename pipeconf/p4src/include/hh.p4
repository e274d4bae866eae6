// SPDX-License-Identifier: Apache-2.0
// Heavy-hitter (HH) detection by inter-packet gap (hybrid P4 UPF, sections
// 5.4 and 6.1: the switch finds the heavy UEs itself and pushes a digest,
// so that the controller can place them on the fast path).
//
// State is per UE, not per 5-tuple: what the controller moves between the
// fast and the slow path is a UE's downlink session (downlink_sessions is
// keyed by the UE address), so what must be heavy is the UE's downlink as
// a whole; a UE with many small flows is as heavy as one with a single
// big flow. The digest still carries the 5-tuple of the packet that made
// the UE heavy, for the controller's log.
//
// Per UE cell (index = crc32(UE address) mod HH_CELLS, the v1model hash
// that BMv2 computes and pbswitch computes bit for bit):
//   hh_owner     the UE address the cell holds now
//   hh_last_us   the UE's last arrival (ingress_global_timestamp, us)
//   hh_ewma      EWMA of its gaps, scaled by 2^HH_EWMA_SHIFT (1/8 us):
//                  ewma <- ewma - (ewma >> 3) + gap   (weight 1/8, no division)
//   hh_reported  1 once the UE was digested, until it idles
//   hh_win_us    the start of the UE's observation window (us)
//   hh_win_bytes its IPv4 bytes since then
//
// The controller sets two values (hh_settings' default action):
//   threshold = floor(2^3 * packet_bytes * 8 * 10^6 / rate_bps)   (1/8 us)
//     the mean gap of a UE sending packet_bytes packets at rate_bps: a UE
//     whose EWMA gap falls below it sends faster, and is heavy;
//   idle_us: a gap at least this long (us) ends the UE's state: it starts
//     afresh, may be reported again, and another UE may take the cell.
// The detector runs only when 0 < threshold < idle_us * 2^3: threshold 0
// (the default) is off, and a threshold gap at or above the idle time
// would make every UE that is not idle heavy, so it counts as off too.
//
// A minimum observation (hh_observation's default action, 0, 0 until set:
// every packet may report, as without it):
//   min_us     a UE is reported only once a window of at least min_us
//              has passed since its state started or its last window;
//   min_bytes  = floor(rate_bps * min_us / (8 * 10^6)): and only if it sent
//              at least that many IPv4 bytes in the window, i.e. its mean
//              rate over the window was heavy too.
// A window that ends without a report starts the next one. The EWMA alone
// takes a TCP flow's first flight (segments back to back, however light
// the flow) for a heavy hitter; the window's bytes do not.
#ifndef FLOWBUF_HH_P4
#define FLOWBUF_HH_P4

#include "headers.p4"

// What the controller learns of a UE that became heavy.
struct hh_digest_t {
    ipv4_addr_t ue_addr;
    ipv4_addr_t app_addr;   // the rest of the 5-tuple: that packet's
    bit<8>      ip_proto;
    l4_port_t   ue_port;
    l4_port_t   app_port;
    bit<48>     ewma;       // its EWMA gap then, 1/8 us
    bit<32>     index;      // its register cell
}

control Hh(inout parsed_headers_t hdr,
           inout local_metadata_t meta,
           inout standard_metadata_t std_meta) {

    register<bit<32>>(HH_CELLS) hh_owner;
    register<bit<48>>(HH_CELLS) hh_last_us;
    register<bit<48>>(HH_CELLS) hh_ewma;
    register<bit<1>>(HH_CELLS) hh_reported;
    register<bit<48>>(HH_CELLS) hh_win_us;
    register<bit<48>>(HH_CELLS) hh_win_bytes;

    // A table's default action rather than registers: PI under BMv2
    // writes no registers over P4Runtime. 0, 0 until set: off.
    action set_hh(bit<32> threshold, bit<32> idle_us) {
        meta.hh.threshold = threshold;
        meta.hh.idle_us = idle_us;
    }

    table hh_settings {
        key = { }
        actions = {
            set_hh;
        }
        default_action = set_hh(0, 0);
        size = 1;
    }

    // A table of its own: the settings above keep their action, and a
    // controller that never writes it gets the detector as before.
    action set_hh_observation(bit<32> min_us, bit<48> min_bytes) {
        meta.hh.min_us = min_us;
        meta.hh.min_bytes = min_bytes;
    }

    table hh_observation {
        key = { }
        actions = {
            set_hh_observation;
        }
        default_action = set_hh_observation(0, 0);
        size = 1;
    }

    // Where the controller takes no digests (ONOS 2.7), it asks for each
    // report as a packet-in as well: 1 sends a copy of the packet that made
    // the UE heavy to the CPU, which egress (HhReportEgress) makes an
    // hh_report_t. A table of its own, so the settings keep their action.
    action set_hh_cpu_report(bit<1> enabled) {
        meta.hh.report_to_cpu = enabled;
    }

    table hh_cpu_report {
        key = { }
        actions = {
            set_hh_cpu_report;
        }
        default_action = set_hh_cpu_report(0);
        size = 1;
    }

    // The copy shares the CPU clone session and field list with the ACL's
    // clone_to_cpu and congestion's report: whichever clone call comes
    // last, the copy is that one's (v1model clones a packet once).
    action report_to_cpu() {
        meta.hh.cpu_report = true;
        meta.hh.ue_addr = meta.upf.ue_addr;
        meta.hh.app_addr = meta.upf.app_addr;
        meta.hh.ip_proto = meta.upf.ip_proto;
        meta.hh.ue_port = meta.upf.ue_port;
        meta.hh.app_port = meta.upf.app_port;
        meta.cpu_ingress_port = std_meta.ingress_port;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, CLONE_FL_CPU);
    }

    // One action reads and writes the UE's cell: BMv2 and pbswitch run
    // an action holding its registers' locks, so two packets of the UE
    // cannot both find it unreported.
    @hidden
    action update() {
        hash(meta.hh.index, HashAlgorithm.crc32, (bit<32>)0,
             { meta.upf.ue_addr }, (bit<32>)HH_CELLS);
        bit<32> owner;
        hh_owner.read(owner, meta.hh.index);
        bit<48> last;
        hh_last_us.read(last, meta.hh.index);
        bit<48> ewma;
        hh_ewma.read(ewma, meta.hh.index);
        bit<1> reported;
        hh_reported.read(reported, meta.hh.index);
        bit<48> win_start;
        hh_win_us.read(win_start, meta.hh.index);
        bit<48> win_bytes;
        hh_win_bytes.read(win_bytes, meta.hh.index);

        bit<48> now = std_meta.ingress_global_timestamp;
        bit<48> threshold = (bit<48>)meta.hh.threshold;
        if (owner != meta.upf.ue_addr || now - last >= (bit<48>)meta.hh.idle_us) {
            // A UE new to the cell, or back from idle, starts twice as slow
            // as the threshold: it must keep up a heavy rate for several
            // packets (at least 6 back to back) before it is reported, so
            // a short burst of a light UE is not.
            owner = meta.upf.ue_addr;
            ewma = threshold << 1;
            reported = 0;
            win_start = now;
            win_bytes = 0;
        } else {
            ewma = ewma - (ewma >> HH_EWMA_SHIFT) + (now - last);
        }
        win_bytes = win_bytes + (bit<48>)hdr.ipv4.total_len;
        bool observed = now - win_start >= (bit<48>)meta.hh.min_us;
        meta.hh.report = false;
        if (reported == 0 && ewma < threshold && observed
                && win_bytes >= meta.hh.min_bytes) {
            reported = 1;
            meta.hh.report = true;
        }
        if (observed && !meta.hh.report) {
            // The window ended light (or the UE is reported): the next one
            // starts now.
            win_start = now;
            win_bytes = 0;
        }
        meta.hh.ewma = ewma;
        hh_owner.write(meta.hh.index, owner);
        hh_last_us.write(meta.hh.index, now);
        hh_ewma.write(meta.hh.index, ewma);
        hh_reported.write(meta.hh.index, reported);
        hh_win_us.write(meta.hh.index, win_start);
        hh_win_bytes.write(meta.hh.index, win_bytes);
    }

    apply {
        // Downlink packets as they arrive: after the firewall (what it
        // denies moves nothing), before the session lookups (a UE that
        // misses the fast path's sessions is the one to find); a buffer's
        // replay was counted on its way in.
        if (meta.upf.direction != UPF_DIR_DOWNLINK || meta.upf.dropped
                || meta.from_vport == 1) {
            return;
        }
        hh_settings.apply();
        hh_observation.apply();
        if (meta.hh.threshold == 0
                || (bit<48>)meta.hh.threshold >= ((bit<48>)meta.hh.idle_us << HH_EWMA_SHIFT)) {
            return;
        }
        update();
        if (meta.hh.report) {
            digest<hh_digest_t>(1, { meta.upf.ue_addr, meta.upf.app_addr, meta.upf.ip_proto,
                                     meta.upf.ue_port, meta.upf.app_port, meta.hh.ewma,
                                     meta.hh.index });
            hh_cpu_report.apply();
            if (meta.hh.report_to_cpu == 1) {
                report_to_cpu();
            }
        }
    }
}

// The copy hh_cpu_report asked for becomes the report: Ethernet of type
// ETHERTYPE_HH_REPORT and hh_report_t, the payload left behind. The
// metadata it is built from came with the clone (CLONE_FL_CPU).
control HhReportEgress(inout parsed_headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t std_meta) {
    action make_report() {
        hdr.hh_report.setValid();
        hdr.hh_report.ue_addr = meta.hh.ue_addr;
        hdr.hh_report.app_addr = meta.hh.app_addr;
        hdr.hh_report.ip_proto = meta.hh.ip_proto;
        hdr.hh_report.ue_port = meta.hh.ue_port;
        hdr.hh_report.app_port = meta.hh.app_port;
        hdr.hh_report.ewma = meta.hh.ewma;
        hdr.hh_report.index = meta.hh.index;
        hdr.ethernet.ether_type = ETHERTYPE_HH_REPORT;
        hdr.buffer_tag.setInvalid();
        hdr.cc_notify.setInvalid();
        hdr.cc_marker.setInvalid();
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
        // packet_in, Ethernet and the report (23 bytes).
        truncate(PACKET_IN_HDR_BYTES + ETH_HDR_BYTES + 23);
    }

    apply {
        // A switch-over report taken by the same clone wins (congestion.p4).
        if (std_meta.instance_type == PKT_INSTANCE_TYPE_INGRESS_CLONE && meta.hh.cpu_report
                && !meta.cc.report) {
            make_report();
        }
    }
}

#endif
