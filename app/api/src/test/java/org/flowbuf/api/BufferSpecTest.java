/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.testing.EqualsTester;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Buffer specs and ids are checked when built. */
public class BufferSpecTest {

    @Test
    public void defaultsAreFifoDropTail() {
        BufferSpec spec = BufferSpec.builder().capacityPackets(100).build();
        assertEquals(QueueType.FIFO, spec.queueType());
        assertEquals(OverflowPolicy.DROP_TAIL, spec.overflow());
        assertEquals(0, spec.capacityBytes());
    }

    @Test
    public void badSizesAreRefused() {
        assertInvalid(BufferSpec.builder(), "needs capacityBytes or capacityPackets");
        assertInvalid(BufferSpec.builder().capacityBytes(-1), "capacityBytes");
        assertInvalid(BufferSpec.builder().capacityPackets(BufferSpec.MAX_PACKETS + 1), "capacityPackets");
        assertInvalid(BufferSpec.builder().capacityBytes(BufferSpec.MAX_BYTES + 1), "capacityBytes");
        assertInvalid(BufferSpec.builder().capacityBytes(10).overflow(null), "overflow");
    }

    @Test
    public void specsWithTheSameFieldsAreEqual() {
        new EqualsTester()
                .addEqualityGroup(BufferSpec.builder().capacityBytes(1000).build(),
                                  BufferSpec.builder().capacityBytes(1000).build())
                .addEqualityGroup(BufferSpec.builder().capacityBytes(1000)
                                          .overflow(OverflowPolicy.DROP_HEAD).build())
                .addEqualityGroup(BufferSpec.builder().capacityPackets(1000).build())
                .testEquals();
    }

    @Test
    public void idsFollowTheSouthboundRules() {
        assertEquals("buf-1:a.b_c", BufferId.bufferId("buf-1:a.b_c").id());
        assertEquals("vp100", VportId.vportId("vp100").id());
        for (String bad : new String[]{null, "", "has space", "x".repeat(65), "slash/no"}) {
            try {
                BufferId.bufferId(bad);
                fail("accepted buffer id " + bad);
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
            }
        }
    }

    private static void assertInvalid(BufferSpec.Builder builder, String mention) {
        try {
            builder.build();
            fail("built an invalid spec");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains(mention));
        }
    }
}
