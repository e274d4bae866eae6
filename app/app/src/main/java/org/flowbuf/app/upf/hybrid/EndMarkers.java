/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.flowbuf.app.packet.UdpFrames;
import org.flowbuf.pipeconf.HybridP4Names;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The end marker of a move (include/hybrid.p4): UDP from 0.0.0.0 to the
 * UE, to HYBRID_MARKER_PORT, sent down the slow path behind the UE's
 * packets; the slow path tunnels it to the gNodeB like them, and the fast
 * path punts it to the controller when it comes back.
 */
final class EndMarkers {

    /** Locally administered MACs no host owns (the destination when the gNodeB's is unknown). */
    static final MacAddress DST_MAC = MacAddress.valueOf("02:00:00:00:00:fb");
    static final MacAddress SRC_MAC = MacAddress.valueOf("02:00:00:00:00:fc");
    static final int GTPU_PORT = 2152;
    private static final int ETH_BYTES = 14;
    private static final int UDP_BYTES = 8;
    private static final int GTPU_BYTES = 8;
    private static final int GTPU_E_S_PN = 0x07;
    private static final int GTPU_E = 0x04;

    private EndMarkers() {
    }

    /**
     * The marker for a UE.
     *
     * @param ue     the UE
     * @param seq    which move (in its payload, for a reader of a capture)
     * @param dstMac the MAC the UE's downlink carries (its gNodeB's, as the data
     *               network's router sends it), so that the slow path forwards
     *               the marker as it forwards the UE's packets
     * @return Ethernet frame
     */
    static byte[] frame(Ip4Address ue, long seq, MacAddress dstMac) {
        return UdpFrames.frame(dstMac, SRC_MAC, Ip4Address.valueOf(0), ue,
                               HybridP4Names.MARKER_PORT, HybridP4Names.MARKER_PORT,
                               ByteBuffer.allocate(Long.BYTES).putLong(seq).array());
    }

    /**
     * The UE of a marker as the slow path sent it back: GTP-U (its
     * extension headers skipped) around the marker.
     *
     * @param frame a packet-in's frame
     * @return the UE, empty when the frame is not a tunnelled marker
     */
    static Optional<Ip4Address> ueOf(byte[] frame) {
        try {
            ByteBuffer b = ByteBuffer.wrap(frame);
            if ((b.getShort(12) & 0xffff) != Ethernet.TYPE_IPV4) {
                return Optional.empty();
            }
            int outer = ETH_BYTES;
            if (b.get(outer + 9) != IPv4.PROTOCOL_UDP) {
                return Optional.empty();
            }
            int udp = outer + (b.get(outer) & 0x0f) * 4;
            if ((b.getShort(udp + 2) & 0xffff) != GTPU_PORT) {
                return Optional.empty();
            }
            int gtpu = udp + UDP_BYTES;
            int flags = b.get(gtpu) & 0xff;
            int inner = gtpu + GTPU_BYTES;
            if ((flags & GTPU_E_S_PN) != 0) {
                inner = skipExtensions(b, gtpu, (flags & GTPU_E) != 0);
            }
            if (b.get(inner + 9) != IPv4.PROTOCOL_UDP || b.getInt(inner + 12) != 0) {
                return Optional.empty();
            }
            int innerUdp = inner + (b.get(inner) & 0x0f) * 4;
            if ((b.getShort(innerUdp + 2) & 0xffff) != HybridP4Names.MARKER_PORT) {
                return Optional.empty();
            }
            return Optional.of(Ip4Address.valueOf(b.getInt(inner + 16)));
        } catch (IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** After the 4 optional bytes, extension headers of 4 * length bytes each. */
    private static int skipExtensions(ByteBuffer b, int gtpu, boolean extensions) {
        int at = gtpu + GTPU_BYTES + 4;
        int next = b.get(at - 1) & 0xff;
        while (extensions && next != 0) {
            int words = b.get(at) & 0xff;
            if (words == 0) {
                throw new IndexOutOfBoundsException("GTP-U extension of length 0");
            }
            at += 4 * words;
            next = b.get(at - 1) & 0xff;
        }
        return at;
    }
}
