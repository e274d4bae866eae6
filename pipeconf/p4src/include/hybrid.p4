// SPDX-License-Identifier: Apache-2.0
// Hybrid UPF placement (hybrid P4 UPF, sections 5.3 and 5.4): the switch's
// downlink session table is the fast path and holds only the UEs the
// controller promoted (heavy hitters, hh.p4); every other UE's downlink
// misses it and goes, as it arrived, out of the port to the slow path (a
// second UPF with large tables, the paper's x86), which encapsulates it and
// sends it back through this switch towards the gNodeB.
//
// The controller turns it on with slow_path's default action
// to_slow_path(port) (off by default: a miss is dropped as before).
//
// A move between the paths (a promotion) would let the fast path overtake
// what is still in the slow path, so the controller holds the UE's packets
// in a FlowBuf buffer and sends an end marker down the slow path behind
// them (a packet-out to the slow port): UDP from 0.0.0.0 to the UE, to
// HYBRID_MARKER_PORT. The slow path encapsulates it like the UE's packets;
// when it comes back here (GTP-U, in on the slow port) this block punts it
// to the controller: everything the slow path had of the UE has passed.
#ifndef FLOWBUF_HYBRID_P4
#define FLOWBUF_HYBRID_P4

#include "headers.p4"

// The end marker's UDP port; its source is 0.0.0.0, which no data network
// sends from, so no UE packet is taken for a marker.
const l4_port_t HYBRID_MARKER_PORT = 0xFB0E;

control HybridSlowPath(inout parsed_headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t std_meta) {

    action to_slow_path(port_num_t port) {
        meta.hybrid.enabled = true;
        meta.hybrid.slow_port = port;
    }

    // Keyless: its default action says whether this switch is a fast path
    // and through which port its slow path is reached.
    table slow_path {
        key = { }
        actions = {
            to_slow_path;
            NoAction;
        }
        default_action = NoAction();
        size = 1;
    }

    apply {
        slow_path.apply();
        if (meta.hybrid.enabled && std_meta.ingress_port == meta.hybrid.slow_port
                && hdr.inner_udp.isValid() && hdr.inner_ipv4.src_addr == 0
                && hdr.inner_udp.dst_port == HYBRID_MARKER_PORT) {
            std_meta.egress_spec = CPU_PORT;
            meta.forwarded = true;
        }
    }
}

#endif
