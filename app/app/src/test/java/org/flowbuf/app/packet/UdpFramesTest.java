/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.packet;

import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onlab.packet.UDP;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

/** The injected UDP frames read back as what they were built from. */
public class UdpFramesTest {

    @Test
    public void aFrameReadsBackWithItsAddressesPortsAndPayload() throws Exception {
        MacAddress dstMac = MacAddress.valueOf("02:00:00:00:00:fb");
        MacAddress srcMac = MacAddress.valueOf("02:00:00:00:00:fa");
        byte[] payload = {1, 2, 3, 4, 5};
        byte[] frame = UdpFrames.frame(dstMac, srcMac, Ip4Address.valueOf("10.0.0.1"),
                                       Ip4Address.valueOf("10.250.0.7"), 40001, 40002, payload);
        Ethernet eth = Ethernet.deserializer().deserialize(frame, 0, frame.length);
        assertEquals(dstMac, eth.getDestinationMAC());
        assertEquals(srcMac, eth.getSourceMAC());
        IPv4 ip = (IPv4) eth.getPayload();
        assertEquals(Ip4Address.valueOf("10.0.0.1").toInt(), ip.getSourceAddress());
        assertEquals(Ip4Address.valueOf("10.250.0.7").toInt(), ip.getDestinationAddress());
        assertEquals(64, ip.getTtl());
        UDP udp = (UDP) ip.getPayload();
        assertEquals(40001, udp.getSourcePort());
        assertEquals(40002, udp.getDestinationPort());
        assertArrayEquals(payload, udp.getPayload().serialize());
        assertEquals(14 + 20 + 8 + payload.length, frame.length);
    }
}
