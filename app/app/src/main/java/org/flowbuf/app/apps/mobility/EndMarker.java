/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.app.packet.UdpFrames;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

/**
 * The end marker of an LMM handoff: a GTP-U End Marker message (3GPP TS
 * 29.281, message type 254) to the UE's address, as an LTE anchor sends on
 * the old path after a path switch. It matches the UE's downlink filter, so
 * it follows the old path through every eNB buffer, behind the last packet.
 */
final class EndMarker {

    static final int GTPU_PORT = 2152;
    static final int GTPU_END_MARKER = 254;
    /** A locally administered MAC no host owns: a UE's kernel ignores the marker. */
    static final MacAddress DST_MAC = MacAddress.valueOf("02:00:00:00:00:fb");
    static final MacAddress SRC_MAC = MacAddress.valueOf("02:00:00:00:00:fa");
    /** Ethernet (14) + IPv4 without options (20): the UDP destination port. */
    static final int UDP_DST_OFFSET = 36;

    /** UDP dst port 2152 ... GTP-U message type 254 (length and checksum ignored). */
    static final MarkerPattern PATTERN = new MarkerPattern(
            UDP_DST_OFFSET,
            new byte[]{0x08, 0x68, 0, 0, 0, 0, 0, (byte) GTPU_END_MARKER},
            new byte[]{(byte) 0xff, (byte) 0xff, 0, 0, 0, 0, 0, (byte) 0xff});

    private EndMarker() {
    }

    /**
     * The marker frame for a downlink.
     *
     * @param downlink filter with a /32 ipv4Dst
     * @return Ethernet frame
     */
    static byte[] frame(FlowFilter downlink) {
        Ip4Address dst = downlink.ipv4Dst().orElseThrow().address().getIp4Address();
        Ip4Address src = downlink.ipv4Src().filter(p -> p.prefixLength() == 32)
                .map(p -> p.address().getIp4Address()).orElse(Ip4Address.valueOf(0));
        byte[] gtpu = {0x30, (byte) GTPU_END_MARKER, 0, 0, 0, 0, 0, 0};
        return UdpFrames.frame(DST_MAC, SRC_MAC, src, dst, GTPU_PORT, GTPU_PORT, gtpu);
    }
}
