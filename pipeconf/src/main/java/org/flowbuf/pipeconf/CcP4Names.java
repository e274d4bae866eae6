/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of congestion detection and avoidance (include/congestion.p4) in
 * the p4info: what a controller writes for a latency-critical flow.
 */
public final class CcP4Names {

    // ---- tables ----

    /** The flow's 5-tuple (ternary) -> TRACK. */
    public static final PiTableId FLOWS = PiTableId.of("IngressPipeImpl.cc_ingress.cc_flows");
    /** (KEY_FLOW, KEY_SLOT) -> FORWARD: slot 0 the primary next hop, slot 1 the backup. */
    public static final PiTableId PATHS = PiTableId.of("IngressPipeImpl.cc_ingress.cc_paths");
    /** The same (KEY_FLOW, KEY_SLOT) pairs as PATHS -> ALTERNATE. */
    public static final PiTableId ALTERNATES =
            PiTableId.of("IngressPipeImpl.cc_ingress.cc_alternates");
    /** Keyless; its default action SET_SWITCH_ID names the switch. */
    public static final PiTableId SWITCH = PiTableId.of("IngressPipeImpl.cc_ingress.cc_switch");
    /** KEY_FLOW -> CHECK_OUT_PORT: the flow's switch-overs send end markers (ordered). */
    public static final PiTableId ORDERED = PiTableId.of("IngressPipeImpl.cc_ingress.cc_ordered");
    /** KEY_FLOW -> TO_SINK: the merge switch steers the flow's end markers into a vport. */
    public static final PiTableId MARKER_SINKS =
            PiTableId.of("IngressPipeImpl.cc_ingress.cc_marker_sinks");
    /** KEY_FLOW -> LIMITS: t_q, t_p, m. */
    public static final PiTableId THRESHOLDS =
            PiTableId.of("EgressPipeImpl.cc_egress.cc_thresholds");

    // ---- match fields ----

    /** FLOWS: IPv4 source (ternary). */
    public static final PiMatchFieldId KEY_IPV4_SRC = PiMatchFieldId.of("ipv4_src");
    /** FLOWS: IPv4 destination (ternary). */
    public static final PiMatchFieldId KEY_IPV4_DST = PiMatchFieldId.of("ipv4_dst");
    /** FLOWS: IP protocol (ternary). */
    public static final PiMatchFieldId KEY_IP_PROTO = PiMatchFieldId.of("ip_proto");
    /** FLOWS: L4 source port (ternary). */
    public static final PiMatchFieldId KEY_L4_SRC_PORT = PiMatchFieldId.of("l4_src_port");
    /** FLOWS: L4 destination port (ternary). */
    public static final PiMatchFieldId KEY_L4_DST_PORT = PiMatchFieldId.of("l4_dst_port");
    /** Flow id. */
    public static final PiMatchFieldId KEY_FLOW = PiMatchFieldId.of("flow");
    /** Path slot, 0 or 1. */
    public static final PiMatchFieldId KEY_SLOT = PiMatchFieldId.of("slot");

    // ---- actions and parameters ----

    /** Track the packet as flow FLOW. */
    public static final PiActionId TRACK = PiActionId.of("IngressPipeImpl.cc_ingress.track");
    /** The flow id. */
    public static final PiActionParamId FLOW = PiActionParamId.of("flow");
    /** The registration a flow's register cells belong to (a new one starts them from zero). */
    public static final PiActionParamId GENERATION = PiActionParamId.of("generation");
    /** Out of PORT with destination MAC DMAC. */
    public static final PiActionId FORWARD = PiActionId.of("IngressPipeImpl.cc_ingress.forward");
    /** Egress port. */
    public static final PiActionParamId PORT = PiActionParamId.of("port");
    /** Next hop's MAC. */
    public static final PiActionParamId DMAC = PiActionParamId.of("dmac");
    /** The slot holds a path. */
    public static final PiActionId ALTERNATE = PiActionId.of("IngressPipeImpl.cc_ingress.alternate");
    /** The switch id in digests and notifications. */
    public static final PiActionId SET_SWITCH_ID =
            PiActionId.of("IngressPipeImpl.cc_ingress.set_switch_id");
    /** Switch id. */
    public static final PiActionParamId ID = PiActionParamId.of("id");
    /** 1: switch-overs also go to the controller as packet-ins (cc_report_t). */
    public static final PiActionParamId REPORT = PiActionParamId.of("report");
    /** A change of out port sends an end marker out of the old one. */
    public static final PiActionId CHECK_OUT_PORT =
            PiActionId.of("IngressPipeImpl.cc_ingress.check_out_port");
    /** Into PORT with buffer tag TAG (a logical vport). */
    public static final PiActionId TO_SINK = PiActionId.of("IngressPipeImpl.cc_ingress.to_sink");
    /** Buffer tag, 0 for a vport alone on its port. */
    public static final PiActionParamId TAG = PiActionParamId.of("tag");
    /** A flow's thresholds. */
    public static final PiActionId LIMITS = PiActionId.of("EgressPipeImpl.cc_egress.limits");
    /** t_q, microseconds. */
    public static final PiActionParamId QUEUE_US = PiActionParamId.of("queue_us");
    /** t_p, microseconds. */
    public static final PiActionParamId PROC_US = PiActionParamId.of("proc_us");
    /** Consecutive packets over a threshold that make the flow congested. */
    public static final PiActionParamId M = PiActionParamId.of("m");

    /** Flow ids are 0..FLOW_CELLS-1 (CC_FLOWS). */
    public static final int FLOW_CELLS = 1024;
    /** Notifications leave by clone session NOTIFY_SESSION_BASE + ingress port. */
    public static final int NOTIFY_SESSION_BASE = 1000;
    /** End markers leave by clone session MARKER_SESSION_BASE + the port the flow left. */
    public static final int MARKER_SESSION_BASE = 2000;
    /** The switch-over digest's type name in the p4info (a struct of flow, switch_id, slot,
     *  queue_us, proc_us, in that order). */
    public static final String DIGEST = "cc_digest_t";
    /** Ethertype of a congestion notification, and of a switch-over report. */
    public static final int ETHERTYPE_NOTIFY = 0x88b6;
    /**
     * Bytes of a switch-over report after its Ethernet header (cc_report_t:
     * flow 16 bits, switch id 16, queue µs 32, processing µs 32, 7 bits of
     * padding and the slot the flow takes now).
     */
    public static final int REPORT_BYTES = 13;
    /** Ethertype of an end marker (Ethernet + flow, switch id, seq: 22 bytes). */
    public static final int ETHERTYPE_MARKER = 0x88b7;

    private CcP4Names() {
    }
}
