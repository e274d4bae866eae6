/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.packet;

import org.onlab.packet.Data;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onlab.packet.UDP;

/**
 * Ethernet + IPv4 + UDP frames the controller injects (the end markers of
 * an LMM handoff and of a hybrid UPF move).
 */
public final class UdpFrames {

    private static final byte TTL = 64;

    private UdpFrames() {
    }

    /**
     * An IPv4 UDP frame, TTL 64, checksums computed.
     *
     * @param dstMac  Ethernet destination
     * @param srcMac  Ethernet source
     * @param src     IPv4 source
     * @param dst     IPv4 destination
     * @param srcPort UDP source port
     * @param dstPort UDP destination port
     * @param payload UDP payload
     * @return the frame
     */
    public static byte[] frame(MacAddress dstMac, MacAddress srcMac, Ip4Address src,
                               Ip4Address dst, int srcPort, int dstPort, byte[] payload) {
        UDP udp = new UDP();
        udp.setSourcePort(srcPort);
        udp.setDestinationPort(dstPort);
        udp.setPayload(new Data(payload));
        IPv4 ip = new IPv4();
        ip.setSourceAddress(src.toInt());
        ip.setDestinationAddress(dst.toInt());
        ip.setProtocol(IPv4.PROTOCOL_UDP);
        ip.setTtl(TTL);
        ip.setPayload(udp);
        Ethernet eth = new Ethernet();
        eth.setDestinationMACAddress(dstMac);
        eth.setSourceMACAddress(srcMac);
        eth.setEtherType(Ethernet.TYPE_IPV4);
        eth.setPayload(ip);
        return eth.serialize();
    }
}
