/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowFilter;
import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.UDP;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** A probe carries the flow's 5-tuple and reads back as the flow's probe. */
public class ProbeFramesTest {

    private static final MacAddress DST = MacAddress.valueOf("00:00:00:00:08:02");

    @Test
    public void aProbeHasTheFlowsFiveTupleAndReadsBack() throws Exception {
        FlowFilter f = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.8.2/32"))
                .ipProto(17).l4DstPort(7000).build();
        byte[] frame = ProbeFrames.build(f, 300, DST, 42);
        Ethernet eth = Ethernet.deserializer().deserialize(frame, 0, frame.length);
        assertEquals(DST, eth.getDestinationMAC());
        assertEquals(ProbeFrames.mac(300), eth.getSourceMAC());
        IPv4 ip = (IPv4) eth.getPayload();
        assertEquals(IPv4.toIPv4Address("10.0.8.2"), ip.getDestinationAddress());
        assertEquals(IPv4.PROTOCOL_UDP, ip.getProtocol());
        assertEquals(7000, ((UDP) ip.getPayload()).getDestinationPort());
        // The checksums the switches and hosts check.
        byte[] header = java.util.Arrays.copyOfRange(frame, 14, 34);
        assertEquals(0, sum(header));
        ProbeFrames.Probe p = ProbeFrames.parse(frame).orElseThrow();
        assertEquals(300, p.index());
        assertEquals(42, p.seq());
    }

    @Test
    public void aTcpFlowsProbeIsTcp() throws Exception {
        FlowFilter f = FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.1/32"))
                .ipProto(6).l4SrcPort(80).build();
        byte[] frame = ProbeFrames.build(f, 1, DST, 7);
        IPv4 ip = (IPv4) Ethernet.deserializer().deserialize(frame, 0, frame.length).getPayload();
        assertEquals(IPv4.PROTOCOL_TCP, ip.getProtocol());
        assertEquals(7, ProbeFrames.parse(frame).orElseThrow().seq());
    }

    @Test
    public void otherFramesAreNotProbes() {
        FlowFilter f = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.8.2/32")).build();
        byte[] frame = ProbeFrames.build(f, 5, DST, 1);
        byte[] otherSource = frame.clone();
        otherSource[6] = 0;  // a host's MAC
        assertFalse(ProbeFrames.parse(otherSource).isPresent());
        byte[] otherIndex = frame.clone();
        otherIndex[11] = 6;  // the MAC names another flow than the payload
        assertFalse(ProbeFrames.parse(otherIndex).isPresent());
        assertFalse(ProbeFrames.parse(new byte[20]).isPresent());
        assertTrue(ProbeFrames.parse(frame).isPresent());
    }

    private static int sum(byte[] b) {
        long s = 0;
        for (int i = 0; i < b.length; i += 2) {
            s += ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }
        while ((s >> 16) != 0) {
            s = (s & 0xffff) + (s >> 16);
        }
        return (int) (~s & 0xffff);
    }
}
