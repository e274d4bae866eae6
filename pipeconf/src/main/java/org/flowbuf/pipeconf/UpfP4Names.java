/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names and constants of the FlowBuf program's UPF (pipeconf/p4src/include/upf.p4,
 * firewall.p4; values from defines.p4), as they appear in
 * pipeconf/p4src/build/p4info.txt. UpfP4NamesTest checks them against that
 * p4info and defines.p4. Match fields are KEY_*, action parameters have no
 * prefix.
 */
public final class UpfP4Names {

    // ---- tables ----

    /** N3 addresses (KEY_IPV4_DST /32 -> IFACE_ACCESS) and UE pools (-> IFACE_CORE). */
    public static final PiTableId INTERFACES =
            PiTableId.of("IngressPipeImpl.upf_classifier.interfaces");
    /** Direction-aware firewall on the UE's 5-tuple: FIREWALL_ALLOW or FIREWALL_DENY. */
    public static final PiTableId FIREWALL = PiTableId.of("IngressPipeImpl.firewall.rules");
    /** (KEY_N3_ADDR, KEY_TEID) -> SET_UPLINK_SESSION or UPLINK_SESSION_DROP. */
    public static final PiTableId UPLINK_SESSIONS = PiTableId.of("IngressPipeImpl.upf.uplink_sessions");
    /** KEY_UE_ADDR -> SET_DOWNLINK_SESSION, SET_DOWNLINK_SESSION_BUF or DOWNLINK_SESSION_DROP. */
    public static final PiTableId DOWNLINK_SESSIONS =
            PiTableId.of("IngressPipeImpl.upf.downlink_sessions");
    /** The UE's 5-tuple (ternary, ranges for ports) -> SET_APP_ID. */
    public static final PiTableId APPLICATIONS = PiTableId.of("IngressPipeImpl.upf.applications");
    /** (KEY_UE_ADDR, KEY_APP_ID) -> UPLINK_TERM_FWD or TERM_DROP. */
    public static final PiTableId UPLINK_TERMINATIONS =
            PiTableId.of("IngressPipeImpl.upf.uplink_terminations");
    /** (KEY_UE_ADDR, KEY_APP_ID) -> DOWNLINK_TERM_FWD or TERM_DROP. */
    public static final PiTableId DOWNLINK_TERMINATIONS =
            PiTableId.of("IngressPipeImpl.upf.downlink_terminations");
    /** KEY_TUNNEL_PEER_ID -> SET_TUNNEL_PEER (a gNodeB: outer addresses, UDP source port). */
    public static final PiTableId TUNNEL_PEERS = PiTableId.of("IngressPipeImpl.upf.tunnel_peers");
    /** KEY_QFI -> SET_QUEUE (the egress queue, std_meta.priority). */
    public static final PiTableId QUEUES = PiTableId.of("IngressPipeImpl.upf.queues");

    // ---- match fields ----

    /** Destination address, LPM (interfaces). */
    public static final PiMatchFieldId KEY_IPV4_DST = PiMatchFieldId.of("ipv4_dst");
    /** The N3 address an uplink packet is sent to. */
    public static final PiMatchFieldId KEY_N3_ADDR = PiMatchFieldId.of("n3_addr");
    /** The uplink TEID. */
    public static final PiMatchFieldId KEY_TEID = PiMatchFieldId.of("teid");
    /** The UE's address. */
    public static final PiMatchFieldId KEY_UE_ADDR = PiMatchFieldId.of("ue_addr");
    /** The data network's address. */
    public static final PiMatchFieldId KEY_APP_ADDR = PiMatchFieldId.of("app_addr");
    /** IP protocol of the UE's packet. */
    public static final PiMatchFieldId KEY_IP_PROTO = PiMatchFieldId.of("ip_proto");
    /** The UE's L4 port (range). */
    public static final PiMatchFieldId KEY_UE_PORT = PiMatchFieldId.of("ue_port");
    /** The data network's L4 port (range). */
    public static final PiMatchFieldId KEY_APP_PORT = PiMatchFieldId.of("app_port");
    /** Application id, from the applications table (APP_ID_DEFAULT when none matched). */
    public static final PiMatchFieldId KEY_APP_ID = PiMatchFieldId.of("app_id");
    /** UPF_DIR_UPLINK or UPF_DIR_DOWNLINK (firewall, ternary). */
    public static final PiMatchFieldId KEY_DIRECTION = PiMatchFieldId.of("direction");
    /** A tunnel peer's id, as downlink sessions name it. */
    public static final PiMatchFieldId KEY_TUNNEL_PEER_ID = PiMatchFieldId.of("tunnel_peer_id");
    /** QoS flow identifier. */
    public static final PiMatchFieldId KEY_QFI = PiMatchFieldId.of("qfi");

    // ---- actions ----

    /** Interfaces: the prefix is an N3 address (uplink arrives there). */
    public static final PiActionId IFACE_ACCESS =
            PiActionId.of("IngressPipeImpl.upf_classifier.iface_access");
    /** Interfaces: the prefix is a UE pool (downlink goes there). */
    public static final PiActionId IFACE_CORE = PiActionId.of("IngressPipeImpl.upf_classifier.iface_core");
    /** Firewall: pass (an exception to a broader deny). */
    public static final PiActionId FIREWALL_ALLOW = PiActionId.of("IngressPipeImpl.firewall.allow");
    /** Firewall: drop (counted under DROP_FIREWALL). */
    public static final PiActionId FIREWALL_DENY = PiActionId.of("IngressPipeImpl.firewall.deny");
    /** Uplink session; parameters CTR_IDX, METER_IDX. */
    public static final PiActionId SET_UPLINK_SESSION =
            PiActionId.of("IngressPipeImpl.upf.set_uplink_session");
    /** Uplink session that drops; parameter CTR_IDX. */
    public static final PiActionId UPLINK_SESSION_DROP =
            PiActionId.of("IngressPipeImpl.upf.uplink_session_drop");
    /** Downlink session; parameters CTR_IDX, METER_IDX, TUNNEL_PEER_ID. */
    public static final PiActionId SET_DOWNLINK_SESSION =
            PiActionId.of("IngressPipeImpl.upf.set_downlink_session");
    /**
     * Downlink session held in a FlowBuf buffer: its packets go to the vport
     * BUFFER_PORT, and the buffer's replays go on to TUNNEL_PEER_ID;
     * parameters CTR_IDX, METER_IDX, TUNNEL_PEER_ID, BUFFER_PORT.
     */
    public static final PiActionId SET_DOWNLINK_SESSION_BUF =
            PiActionId.of("IngressPipeImpl.upf.set_downlink_session_buf");
    /** Downlink session that drops; parameter CTR_IDX. */
    public static final PiActionId DOWNLINK_SESSION_DROP =
            PiActionId.of("IngressPipeImpl.upf.downlink_session_drop");
    /** Applications: parameter APP_ID. */
    public static final PiActionId SET_APP_ID = PiActionId.of("IngressPipeImpl.upf.set_app_id");
    /** Uplink termination; parameters CTR_IDX, METER_IDX (the application meter), QFI. */
    public static final PiActionId UPLINK_TERM_FWD = PiActionId.of("IngressPipeImpl.upf.uplink_term_fwd");
    /** Downlink termination; parameters CTR_IDX, METER_IDX, TEID, QFI. */
    public static final PiActionId DOWNLINK_TERM_FWD =
            PiActionId.of("IngressPipeImpl.upf.downlink_term_fwd");
    /** Termination that drops (either direction). */
    public static final PiActionId TERM_DROP = PiActionId.of("IngressPipeImpl.upf.term_drop");
    /** Tunnel peer; parameters SRC_ADDR, DST_ADDR, SPORT. */
    public static final PiActionId SET_TUNNEL_PEER = PiActionId.of("IngressPipeImpl.upf.set_tunnel_peer");
    /** Queues: parameter PRIORITY. */
    public static final PiActionId SET_QUEUE = PiActionId.of("IngressPipeImpl.upf.set_queue");

    // ---- action parameters ----

    /** A cell of SESSION_COUNTER or TERMINATION_COUNTER. */
    public static final PiActionParamId CTR_IDX = PiActionParamId.of("ctr_idx");
    /** A cell of SESSION_METER or APP_METER; 0 is left unconfigured: no meter. */
    public static final PiActionParamId METER_IDX = PiActionParamId.of("meter_idx");
    /** A tunnel peer's id. */
    public static final PiActionParamId TUNNEL_PEER_ID = PiActionParamId.of("tunnel_peer_id");
    /** The vport port whose buffer holds a downlink session. */
    public static final PiActionParamId BUFFER_PORT = PiActionParamId.of("buffer_port");
    /** Application id. */
    public static final PiActionParamId APP_ID = PiActionParamId.of("app_id");
    /** Downlink TEID. */
    public static final PiActionParamId TEID = PiActionParamId.of("teid");
    /** QoS flow identifier. */
    public static final PiActionParamId QFI = PiActionParamId.of("qfi");
    /** The tunnel's outer source address (an N3 address). */
    public static final PiActionParamId SRC_ADDR = PiActionParamId.of("src_addr");
    /** The tunnel's outer destination address (the gNodeB). */
    public static final PiActionParamId DST_ADDR = PiActionParamId.of("dst_addr");
    /** The tunnel's outer UDP source port. */
    public static final PiActionParamId SPORT = PiActionParamId.of("sport");
    /** Egress queue (std_meta.priority, 0-7). */
    public static final PiActionParamId PRIORITY = PiActionParamId.of("priority");

    // ---- counters and meters ----

    /** What each session took in, before the meters, by CTR_IDX. */
    public static final PiCounterId SESSION_COUNTER = PiCounterId.of("IngressPipeImpl.upf.session_counter");
    /** What each termination sent on, after the meters, by CTR_IDX. */
    public static final PiCounterId TERMINATION_COUNTER =
            PiCounterId.of("IngressPipeImpl.upf.termination_counter");
    /** Every drop of the UPF and its firewall, by reason (DROP_*). */
    public static final PiCounterId DROPS = PiCounterId.of("IngressPipeImpl.upf.drops");
    /** Sessions' AMBR (bytes; red is dropped). */
    public static final PiMeterId SESSION_METER = PiMeterId.of("IngressPipeImpl.upf.session_meter");
    /** Applications' rates (bytes; red is dropped). */
    public static final PiMeterId APP_METER = PiMeterId.of("IngressPipeImpl.upf.app_meter");

    // ---- values (defines.p4) ----

    /** KEY_DIRECTION of uplink (UPF_DIR_UPLINK). */
    public static final int DIRECTION_UPLINK = 1;
    /** KEY_DIRECTION of downlink (UPF_DIR_DOWNLINK). */
    public static final int DIRECTION_DOWNLINK = 2;
    /** The application of packets no applications entry matched (APP_ID_DEFAULT). */
    public static final int APP_ID_DEFAULT = 0;
    /** Cells of the counter and meter arrays (UPF_INDEX_CELLS); CTR_IDX and METER_IDX are below it. */
    public static final int INDEX_CELLS = 65536;

    /** DROPS cell: to an N3 address on UDP 2152 but not a well-formed G-PDU carrying IPv4. */
    public static final int DROP_MALFORMED_GTPU = 0;
    /** DROPS cell: unknown (N3 address, TEID). */
    public static final int DROP_UPLINK_SESSION_MISS = 1;
    /** DROPS cell: unknown UE address. */
    public static final int DROP_DOWNLINK_SESSION_MISS = 2;
    /** DROPS cell: the session's action is drop. */
    public static final int DROP_SESSION_DROP = 3;
    /** DROPS cell: no termination for (UE, application). */
    public static final int DROP_TERMINATION_MISS = 4;
    /** DROPS cell: the termination's action is drop. */
    public static final int DROP_TERMINATION_DROP = 5;
    /** DROPS cell: the session names an unknown tunnel peer. */
    public static final int DROP_TUNNEL_PEER_MISS = 6;
    /** DROPS cell: red at the session meter. */
    public static final int DROP_SESSION_METER = 7;
    /** DROPS cell: red at the application meter. */
    public static final int DROP_APP_METER = 8;
    /** DROPS cell: denied by the firewall. */
    public static final int DROP_FIREWALL = 9;
    /** DROPS cell: a downlink packet that is GTP-U itself (no tunnel in a tunnel). */
    public static final int DROP_GTPU_TO_UE = 10;
    /** Cells of DROPS. */
    public static final int DROP_REASONS = 11;

    private UpfP4Names() {
    }
}
