/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.PacketId;
import org.flowbuf.proto.buffer.v1.BufferStats;
import org.flowbuf.proto.buffer.v1.DropCounter;
import org.junit.Test;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/** Statistics from the agent's protobuf form. */
public class ProtoConverterTest {

    @Test
    public void statisticsCarryEveryCounterAndTheLastOutPacketId() {
        BufferStats stats = BufferStats.newBuilder()
                .setPacketsIn(10).setBytesIn(600).setPacketsOut(7).setBytesOut(420)
                .addDrops(DropCounter.newBuilder().setPackets(1).setBytes(60))
                .addDrops(DropCounter.newBuilder().setPackets(2).setBytes(120))
                .setOccupancyPackets(0).setOccupancyBytes(0)
                .setHighWatermarkPackets(9).setOldestPacketAgeNs(0)
                .setTriggerArmed(true).setTriggersFired(4).setTriggerFailures(1)
                .setLastOutPacketId(org.flowbuf.proto.buffer.v1.PacketId.newBuilder()
                                            .setIpv4Id(65535).setL4Checksum(0x1234))
                .build();
        BufferStatistics s = ProtoConverter.toStatistics(stats);
        assertEquals(10, s.packetsIn());
        assertEquals(420, s.bytesOut());
        assertEquals(3, s.packetsDropped());
        assertEquals(9, s.highWatermarkPackets());
        assertEquals(Optional.of(PacketId.of(65535, 0x1234)), s.lastOutPacketId());
        assertEquals(true, s.triggerArmed());
        assertEquals(4, s.triggersFired());
        assertEquals(1, s.triggerFailures());
    }

    @Test
    public void anUnsetLastOutPacketIdIsAbsentNotZero() {
        BufferStatistics s = ProtoConverter.toStatistics(BufferStats.newBuilder().setPacketsIn(3).build());
        assertEquals(Optional.empty(), s.lastOutPacketId());
        // Set but all zero is a real id (IPv4 id 0, checksum 0).
        BufferStats zero = BufferStats.newBuilder()
                .setLastOutPacketId(org.flowbuf.proto.buffer.v1.PacketId.getDefaultInstance()).build();
        assertEquals(Optional.of(PacketId.of(0, 0)), ProtoConverter.toStatistics(zero).lastOutPacketId());
    }

    @Test
    public void aPacketIdBeyond16BitsIsRefused() {
        for (int[] bad : new int[][]{{0x10000, 1}, {1, 0x10000}, {-1, 1}}) {
            try {
                ProtoConverter.toPacketId(org.flowbuf.proto.buffer.v1.PacketId.newBuilder()
                                                  .setIpv4Id(bad[0]).setL4Checksum(bad[1]).build());
                fail("accepted " + bad[0] + "/" + bad[1]);
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
            }
        }
    }
}
