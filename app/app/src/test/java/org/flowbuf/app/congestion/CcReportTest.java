/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.junit.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;

/**
 * Switch-over reports as congestion.p4 builds them (see
 * test/packet/test_congestion.py, which checks the switch's side on
 * pbswitch and BMv2).
 */
public class CcReportTest {

    private static byte[] frame(int ethertype, int flow, int switchId, long queueUs, long procUs,
                                int lastByte, int extra) {
        ByteBuffer b = ByteBuffer.allocate(14 + 13 + extra);
        b.put(new byte[]{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1});
        b.putShort((short) ethertype);
        b.putShort((short) flow).putShort((short) switchId);
        b.putInt((int) queueUs).putInt((int) procUs).put((byte) lastByte);
        return b.array();
    }

    private static List<Object> fields(CcDigest d) {
        return List.of(d.index(), d.switchId(), d.slot(), d.queueUs(), d.procUs());
    }

    @Test
    public void aReportCarriesTheDigestsFieldsUnsigned() {
        CcDigest d = CcReport.decode(frame(0x88b6, 1023, 0xfffe, 0xffff_fff0L, 20, 1, 0))
                .orElseThrow();
        assertEquals(List.of(1023, 0xfffe, 1, 0xffff_fff0L, 20L), fields(d));
        // Only the low bit is the slot (the rest is padding).
        assertEquals(0, CcReport.decode(frame(0x88b6, 3, 7, 1, 2, 0xfe, 0)).orElseThrow().slot());
    }

    @Test
    public void otherFramesAreNoReports() {
        assertEquals(Optional.empty(), CcReport.decode(frame(0x0800, 3, 7, 1, 2, 1, 0)));
        // A notification is a byte shorter; a longer frame is a punted packet, not a report.
        assertEquals(Optional.empty(), CcReport.decode(new byte[14 + 12]));
        assertEquals(Optional.empty(), CcReport.decode(frame(0x88b6, 3, 7, 1, 2, 1, 1)));
        assertEquals(Optional.empty(), CcReport.decode(new byte[0]));
    }
}
