/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of the heavy-hitter detector (include/hh.p4) in the p4info: the
 * settings a controller writes and the digest it receives.
 */
public final class HhP4Names {

    /** Keyless; its default action SET_HH holds the detector's settings. */
    public static final PiTableId SETTINGS = PiTableId.of("IngressPipeImpl.hh.hh_settings");
    /** The settings: THRESHOLD and IDLE_US. */
    public static final PiActionId SET_HH = PiActionId.of("IngressPipeImpl.hh.set_hh");
    /** EWMA gap under which a UE is heavy, 1/8 µs (0: off). */
    public static final PiActionParamId THRESHOLD = PiActionParamId.of("threshold");
    /** A gap this long starts a UE's state afresh, µs. */
    public static final PiActionParamId IDLE_US = PiActionParamId.of("idle_us");
    /** Keyless; its default action SET_OBSERVATION holds the minimum observation. */
    public static final PiTableId OBSERVATION = PiTableId.of("IngressPipeImpl.hh.hh_observation");
    /** The minimum observation: MIN_US and MIN_BYTES (0, 0: none). */
    public static final PiActionId SET_OBSERVATION =
            PiActionId.of("IngressPipeImpl.hh.set_hh_observation");
    /** A UE is observed this long before it may be reported, µs. */
    public static final PiActionParamId MIN_US = PiActionParamId.of("min_us");
    /** And must send at least this many IPv4 bytes in that window. */
    public static final PiActionParamId MIN_BYTES = PiActionParamId.of("min_bytes");
    /**
     * Keyless; its default action SET_CPU_REPORT asks for each report as a
     * packet-in too (where the controller takes no digests, ONOS 2.7).
     */
    public static final PiTableId CPU_REPORT = PiTableId.of("IngressPipeImpl.hh.hh_cpu_report");
    /** ENABLED 1: reports also come as packet-ins. */
    public static final PiActionId SET_CPU_REPORT =
            PiActionId.of("IngressPipeImpl.hh.set_hh_cpu_report");
    /** 1 or 0. */
    public static final PiActionParamId ENABLED = PiActionParamId.of("enabled");
    /** Ethertype of a report's packet-in (ETHERTYPE_HH_REPORT in defines.p4). */
    public static final int ETHERTYPE_REPORT = 0x88b8;
    /** Bytes of hh_report_t after the Ethernet header. */
    public static final int REPORT_BYTES = 23;
    /** The digest of a UE that became heavy. */
    public static final String DIGEST = "hh_digest_t";
    /** Its members, in order. */
    public static final int DIGEST_MEMBERS = 7;
    /** The per-UE registers' cells (HH_CELLS in defines.p4). */
    public static final int CELLS = 65536;
    /** Its UE address, in hh_owner's cells. */
    public static final String OWNER_REGISTER = "IngressPipeImpl.hh.hh_owner";

    private HhP4Names() {
    }
}
