/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowFilter;
import org.onlab.packet.Data;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPacket;
import org.onlab.packet.IPv4;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.TCP;
import org.onlab.packet.UDP;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A PROBING flow's probe: a frame on the flow's own 5-tuple (so every
 * switch of the path forwards it by cc_flows and cc_paths, behind the
 * flow's packets), whose source MAC names the flow (so the far-end switch's
 * ACL punts it, {@link CcRules#probePunt}), with a payload of a magic word,
 * the flow's index and the probe's sequence number.
 *
 * <pre>
 * Ethernet  dst: the destination host's MAC, src: 02:fb:70:00:II:II (II the flow index)
 * IPv4      the filter's addresses (0.0.0.0 for one it leaves out), TTL 64, protocol the
 *           filter's (UDP when it names none)
 * UDP/TCP   the filter's ports (0 for one it leaves out); TCP with SYN clear
 * payload   "FBPR" | index 16 bits | sequence 64 bits
 * </pre>
 */
public final class ProbeFrames {

    /** The payload's first four bytes. */
    static final int MAGIC = 0x46425052;  // "FBPR"
    static final int PAYLOAD_BYTES = 4 + 2 + 8;
    private static final byte TTL = 64;
    private static final int TCP_ACK = 0x10;

    private ProbeFrames() {
    }

    /**
     * The source MAC of a flow's probes: locally administered, unicast.
     *
     * @param index flow index (0..65535)
     * @return MAC
     */
    public static MacAddress mac(int index) {
        return MacAddress.valueOf(new byte[]{0x02, (byte) 0xfb, 0x70, 0x00,
                (byte) (index >> 8), (byte) index});
    }

    /**
     * A probe of a flow.
     *
     * @param filter the flow's 5-tuple
     * @param index  its index
     * @param dstMac the destination host's MAC
     * @param seq    the probe's sequence number
     * @return the Ethernet frame
     */
    static byte[] build(FlowFilter filter, int index, MacAddress dstMac, long seq) {
        byte proto = (byte) (int) filter.ipProto().orElse((int) IPv4.PROTOCOL_UDP);
        byte[] payload = ByteBuffer.allocate(PAYLOAD_BYTES).putInt(MAGIC)
                .putShort((short) index).putLong(seq).array();
        IPv4 ip = new IPv4();
        ip.setSourceAddress(address(filter.ipv4Src()));
        ip.setDestinationAddress(address(filter.ipv4Dst()));
        ip.setProtocol(proto);
        ip.setTtl(TTL);
        // onlab fills in the lengths and the checksums (the UDP/TCP one over the pseudo-header).
        ip.setPayload(l4(proto, filter.l4SrcPort().orElse(0), filter.l4DstPort().orElse(0),
                         payload));
        Ethernet eth = new Ethernet();
        eth.setDestinationMACAddress(dstMac);
        eth.setSourceMACAddress(mac(index));
        eth.setEtherType(Ethernet.TYPE_IPV4);
        eth.setPayload(ip);
        return eth.serialize();
    }

    /**
     * The flow index and sequence number of a probe, read from a frame
     * that came back by packet-in.
     *
     * @param frame Ethernet frame
     * @return the probe, empty when the frame is not one
     */
    static Optional<Probe> parse(byte[] frame) {
        if (frame.length < 14 + 20 + PAYLOAD_BYTES || frame[6] != 0x02 || frame[7] != (byte) 0xfb
                || frame[8] != 0x70 || frame[9] != 0) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        if (b.getShort(12) != Ethernet.TYPE_IPV4) {
            return Optional.empty();
        }
        int ihl = (frame[14] & 0x0f) * 4;
        byte proto = frame[14 + 9];
        int l4 = proto == IPv4.PROTOCOL_UDP ? 8 : proto == IPv4.PROTOCOL_TCP ? 20 : 0;
        int at = 14 + ihl + l4;
        if (frame.length < at + PAYLOAD_BYTES || b.getInt(at) != MAGIC) {
            return Optional.empty();
        }
        int index = b.getShort(at + 4) & 0xffff;
        if (index != (((frame[10] & 0xff) << 8) | (frame[11] & 0xff))) {
            return Optional.empty();
        }
        return Optional.of(new Probe(index, b.getLong(at + 6)));
    }

    private static IPacket l4(byte proto, int sport, int dport, byte[] payload) {
        if (proto == IPv4.PROTOCOL_UDP) {
            UDP udp = new UDP();
            udp.setSourcePort(sport);
            udp.setDestinationPort(dport);
            udp.setPayload(new Data(payload));
            return udp;
        }
        if (proto == IPv4.PROTOCOL_TCP) {
            // ACK only: no SYN, nothing a host would open a connection for.
            TCP tcp = new TCP();
            tcp.setSourcePort(sport);
            tcp.setDestinationPort(dport);
            tcp.setDataOffset((byte) 5);
            tcp.setFlags((short) TCP_ACK);
            tcp.setWindowSize((short) 0xffff);
            tcp.setPayload(new Data(payload));
            return tcp;
        }
        return new Data(payload);
    }

    private static int address(Optional<IpPrefix> prefix) {
        return prefix.map(p -> p.address().getIp4Address().toInt()).orElse(0);
    }

    /** A probe read back: its flow index and sequence number. */
    static final class Probe {
        private final int index;
        private final long seq;

        Probe(int index, long seq) {
            this.index = index;
            this.seq = seq;
        }

        int index() {
            return index;
        }

        long seq() {
            return seq;
        }
    }
}
