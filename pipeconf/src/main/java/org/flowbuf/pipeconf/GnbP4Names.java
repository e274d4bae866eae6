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
 * Names of the gNodeB (include/gnb.p4) in the p4info, and the constants of
 * defines.p4 a controller needs to drive it.
 */
public final class GnbP4Names {

    /** The device's gNodeB ports, by ingress port; empty: no gNodeB. */
    public static final PiTableId PORTS = PiTableId.of("IngressPipeImpl.gnb.ports");
    /** Key of {@link #PORTS}. */
    public static final PiMatchFieldId KEY_INGRESS_PORT = PiMatchFieldId.of("ingress_port");
    /** The UPF (N3) port. */
    public static final PiActionId FROM_UPF = PiActionId.of("IngressPipeImpl.gnb.from_upf");
    /** A cell's radio port. */
    public static final PiActionId FROM_RADIO = PiActionId.of("IngressPipeImpl.gnb.from_radio");
    /** A cell's BaaS buffer vport port. */
    public static final PiActionId FROM_BAAS = PiActionId.of("IngressPipeImpl.gnb.from_baas");

    /** A bearer by its downlink TEID. */
    public static final PiTableId DOWNLINK_BEARERS = PiTableId.of("IngressPipeImpl.gnb.downlink_bearers");
    /** A bearer's uplink tunnel, by its downlink TEID. */
    public static final PiTableId UPLINK_BEARERS = PiTableId.of("IngressPipeImpl.gnb.uplink_bearers");
    /** Key of both bearer tables: the downlink TEID. */
    public static final PiMatchFieldId KEY_TEID = PiMatchFieldId.of("teid");
    /** SN cell, radio port, BaaS port, UE MAC. */
    public static final PiActionId SET_DOWNLINK_BEARER =
            PiActionId.of("IngressPipeImpl.gnb.set_downlink_bearer");
    /** The bearer's cell of pdcp_sn. */
    public static final PiActionParamId SN_INDEX = PiActionParamId.of("sn_index");
    /** Its cell's radio port. */
    public static final PiActionParamId RADIO_PORT = PiActionParamId.of("radio_port");
    /** Its cell's BaaS vport port. */
    public static final PiActionParamId BAAS_PORT = PiActionParamId.of("baas_port");
    /** The UE's MAC on the radio side. */
    public static final PiActionParamId UE_MAC = PiActionParamId.of("ue_mac");
    /** Uplink TEID, gNodeB and UPF N3 addresses, UPF port. */
    public static final PiActionId SET_UPLINK_BEARER =
            PiActionId.of("IngressPipeImpl.gnb.set_uplink_bearer");
    /** The UPF's TEID of the bearer's uplink. */
    public static final PiActionParamId UPLINK_TEID = PiActionParamId.of("uplink_teid");
    /** The gNodeB's N3 address (outer source). */
    public static final PiActionParamId GNB_ADDR = PiActionParamId.of("gnb_addr");
    /** The UPF's N3 address (outer destination). */
    public static final PiActionParamId UPF_ADDR = PiActionParamId.of("upf_addr");
    /** The port towards the UPF. */
    public static final PiActionParamId UPF_PORT = PiActionParamId.of("upf_port");

    /** A downlink PDU's clone leaves by clone session BAAS_SESSION_BASE + the BaaS port. */
    public static final int BAAS_SESSION_BASE = 3000;
    /** Cells of the pdcp_sn register (GNB_SN_CELLS). */
    public static final int SN_CELLS = 65536;
    /** The SN register. */
    public static final String SN_REGISTER = "IngressPipeImpl.gnb.pdcp_sn";

    private GnbP4Names() {
    }
}
