// SPDX-License-Identifier: Apache-2.0
// Packet I/O with the controller over the P4Runtime stream.
#ifndef FLOWBUF_PACKETIO_P4
#define FLOWBUF_PACKETIO_P4

#include "headers.p4"

// A packet-out goes straight to the port the controller named; the LMM end
// marker is injected this way.
control PacketOutIngress(inout parsed_headers_t hdr,
                         inout local_metadata_t meta,
                         inout standard_metadata_t std_meta) {
    apply {
        std_meta.egress_spec = hdr.packet_out.egress_port;
        hdr.packet_out.setInvalid();
        meta.forwarded = true;
    }
}

// Packets that leave on the CPU port carry where they came in.
control PacketInEgress(inout parsed_headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = std_meta.instance_type == 0 ?
                std_meta.ingress_port : meta.cpu_ingress_port;
            hdr.packet_in._pad = 0;
        }
    }
}

#endif
