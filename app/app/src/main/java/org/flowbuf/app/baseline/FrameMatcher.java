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
 * Whether a frame belongs to a flow filter: the fields the flow_steering
 * table matches (IPv4 addresses, protocol, TCP/UDP ports), read with ONOS's
 * packet parser. A frame that does not parse matches nothing.
 */
final class FrameMatcher {

    private FrameMatcher() {
    }

    static boolean matches(FlowFilter filter, byte[] frame) {
        Ethernet eth;
        try {
            eth = Ethernet.deserializer().deserialize(frame, 0, frame.length);
        } catch (DeserializationException | RuntimeException e) {
            return false;
        }
        if (!(eth.getPayload() instanceof IPv4)) {
            return false;
        }
        IPv4 ip = (IPv4) eth.getPayload();
        return within(filter.ipv4Src(), ip.getSourceAddress())
                && within(filter.ipv4Dst(), ip.getDestinationAddress())
                && filter.ipProto().map(p -> p == (ip.getProtocol() & 0xff)).orElse(true)
                && portMatches(filter.l4SrcPort(), ip, true)
                && portMatches(filter.l4DstPort(), ip, false);
    }

    private static boolean within(Optional<IpPrefix> prefix, int address) {
        return prefix.map(p -> p.contains(Ip4Address.valueOf(address))).orElse(true);
    }

    private static boolean portMatches(Optional<Integer> wanted, IPv4 ip, boolean source) {
        if (wanted.isEmpty()) {
            return true;
        }
        Integer port = null;
        if (ip.getPayload() instanceof UDP) {
            UDP udp = (UDP) ip.getPayload();
            port = source ? udp.getSourcePort() : udp.getDestinationPort();
        } else if (ip.getPayload() instanceof TCP) {
            TCP tcp = (TCP) ip.getPayload();
            port = source ? tcp.getSourcePort() : tcp.getDestinationPort();
        }
        return wanted.get().equals(port);
    }
}
