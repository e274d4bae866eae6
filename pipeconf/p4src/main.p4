// SPDX-License-Identifier: Apache-2.0
// The FlowBuf P4 program (P4-16, v1model). Each functional block is a control
// in its own file under include/; this file composes them.

#include <core.p4>
#include <v1model.p4>

#include "include/defines.p4"
#include "include/headers.p4"
#include "include/parser.p4"
#include "include/checksums.p4"
#include "include/packetio.p4"
#include "include/steering.p4"
#include "include/forwarding.p4"
#include "include/acl.p4"
#include "include/firewall.p4"
#include "include/upf.p4"
#include "include/hh.p4"
#include "include/hybrid.p4"
#include "include/qos.p4"
#include "include/fb.p4"
#include "include/congestion.p4"
#include "include/gnb.p4"
#include "include/ecn.p4"

control IngressPipeImpl(inout parsed_headers_t hdr,
                        inout local_metadata_t meta,
                        inout standard_metadata_t std_meta) {
    PacketOutIngress() packet_out_io;
    Steering() steering;
    CcIngress() cc_ingress;
    UpfClassifier() upf_classifier;
    Firewall() firewall;
    Hh() hh;
    HybridSlowPath() hybrid;
    Upf() upf;
    Forwarding() forwarding;
    Acl() acl;
    Qos() qos;
    FbAdmission() fb_admission;
    Gnb() gnb;

    apply {
        if (hdr.packet_out.isValid()) {
            packet_out_io.apply(hdr, meta, std_meta);
            exit;
        }
        steering.apply(hdr, meta, std_meta);
        // A gNodeB's GTP-U, radio frames and BaaS resends (ports it names).
        if (!meta.forwarded) {
            gnb.apply(hdr, meta, std_meta);
        }
        // A latency-critical flow takes its current path (and congestion
        // notifications are consumed) unless steering took it.
        if (!meta.forwarded) {
            cc_ingress.apply(hdr, meta, std_meta);
        }
        // What no steering rule took goes through the UPF, which leaves
        // anything that is not UPF traffic as it was, then forwarding
        // (which routes the UPF's decapsulated and encapsulated packets).
        // A fast-path switch's end markers back from its slow path leave
        // for the controller here (forwarded).
        if (!meta.forwarded && hdr.ipv4.isValid()) {
            hybrid.apply(hdr, meta, std_meta);
        }
        if (!meta.forwarded) {
            upf_classifier.apply(hdr, meta, std_meta);
            firewall.apply(hdr, meta, std_meta);
            hh.apply(hdr, meta, std_meta);
            upf.apply(hdr, meta, std_meta);
        }
        if (!meta.forwarded) {
            forwarding.apply(hdr, meta, std_meta);
        }
        qos.apply(hdr, meta, std_meta);
        acl.apply(hdr, meta, std_meta);
        // Last: admission into the queue the decisions above chose.
        fb_admission.apply(hdr, meta, std_meta);
    }
}

control EgressPipeImpl(inout parsed_headers_t hdr,
                       inout local_metadata_t meta,
                       inout standard_metadata_t std_meta) {
    PacketInEgress() packet_in_io;
    FbRelease() fb_release;
    CcEgress() cc_egress;
    HhReportEgress() hh_report;
    BufferTagPush() buffer_tag_push;
    GnbClone() gnb_clone;
    EcnMarking() ecn_marking;

    apply {
        fb_release.apply(hdr, meta, std_meta);
        // A multicast replica never goes back out of the port it came in on.
        if (std_meta.mcast_grp != 0 && std_meta.egress_port == std_meta.ingress_port) {
            mark_to_drop(std_meta);
            exit;
        }
        packet_in_io.apply(hdr, meta, std_meta);
        cc_egress.apply(hdr, meta, std_meta);
        hh_report.apply(hdr, meta, std_meta);
        ecn_marking.apply(hdr, meta, std_meta);
        gnb_clone.apply(meta, std_meta);
        buffer_tag_push.apply(hdr, meta);
    }
}

V1Switch(
    ParserImpl(),
    VerifyChecksumImpl(),
    IngressPipeImpl(),
    EgressPipeImpl(),
    ComputeChecksumImpl(),
    DeparserImpl()
) main;
