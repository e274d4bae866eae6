/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.junit.Test;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The last transmitted packet id of buffer statistics. */
public class BufferStatisticsTest {

    @Test
    public void lastOutPacketIdIsAbsentUntilSet() {
        BufferStatistics s = BufferStatistics.builder().sent(0, 0).build();
        assertEquals(Optional.empty(), s.lastOutPacketId());
        assertFalse(s.toString(), s.toString().contains("lastOut"));
        assertEquals(Optional.empty(),
                     BufferStatistics.builder().lastOutPacketId(null).build().lastOutPacketId());
    }

    @Test
    public void lastOutPacketIdIsKept() {
        BufferStatistics s = BufferStatistics.builder().sent(3, 180)
                .lastOutPacketId(PacketId.of(65535, 7)).build();
        assertEquals(Optional.of(PacketId.of(65535, 7)), s.lastOutPacketId());
        assertEquals(3, s.packetsOut());
        assertTrue(s.toString(), s.toString().contains("lastOut=65535/7"));
    }
}
