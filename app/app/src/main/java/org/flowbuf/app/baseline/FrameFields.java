/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowFilter;
import org.onlab.packet.DeserializationException;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.TCP;
import org.onlab.packet.UDP;

import java.util.Optional;

/**
 * The fields of a frame that the flow_steering table matches (IPv4
 * addresses, protocol, TCP/UDP ports), read once with ONOS's packet parser
 * and then compared with any number of flow filters.
 */
final class FrameFields {

    private final Ip4Address src;
    private final Ip4Address dst;
    private final int proto;
    private final Integer srcPort;
    private final Integer dstPort;

    private FrameFields(IPv4 ip) {
        src = Ip4Address.valueOf(ip.getSourceAddress());
        dst = Ip4Address.valueOf(ip.getDestinationAddress());
        proto = ip.getProtocol() & 0xff;
        if (ip.getPayload() instanceof UDP) {
            UDP udp = (UDP) ip.getPayload();
            srcPort = udp.getSourcePort();
            dstPort = udp.getDestinationPort();
        } else if (ip.getPayload() instanceof TCP) {
            TCP tcp = (TCP) ip.getPayload();
            srcPort = tcp.getSourcePort();
            dstPort = tcp.getDestinationPort();
        } else {
            srcPort = null;
            dstPort = null;
        }
    }

    // The fields of an IPv4 frame; empty for anything else or a frame that does not parse.
    static Optional<FrameFields> of(byte[] frame) {
        try {
            Ethernet eth = Ethernet.deserializer().deserialize(frame, 0, frame.length);
            return eth.getPayload() instanceof IPv4
                    ? Optional.of(new FrameFields((IPv4) eth.getPayload())) : Optional.empty();
        } catch (DeserializationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    boolean matches(FlowFilter filter) {
        return within(filter.ipv4Src(), src) && within(filter.ipv4Dst(), dst)
                && filter.ipProto().map(p -> p == proto).orElse(true)
                && filter.l4SrcPort().map(p -> p.equals(srcPort)).orElse(true)
                && filter.l4DstPort().map(p -> p.equals(dstPort)).orElse(true);
    }

    private static boolean within(Optional<IpPrefix> prefix, Ip4Address address) {
        return prefix.map(p -> p.contains(address)).orElse(true);
    }
}
