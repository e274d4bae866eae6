/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.PacketId;
import org.junit.Test;
import org.onosproject.codec.CodecContext;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** JSON of buffer statistics. */
public class BufferStatisticsCodecTest {

    private final CodecContext context = new FlowBufCodecsContext();
    private final BufferStatisticsCodec codec = new BufferStatisticsCodec();

    @Test
    public void lastOutPacketIdIsOmittedWhenAbsent() {
        ObjectNode json = codec.encode(BufferStatistics.builder().received(4, 240).build(), context);
        assertFalse(json.toString(), json.has("lastOutPacketId"));
        assertEquals(4, json.get("packetsIn").asLong());
        assertEquals(240, json.get("bytesIn").asLong());
    }

    @Test
    public void lastOutPacketIdUsesThePurgeBodyFieldNames() {
        ObjectNode json = codec.encode(BufferStatistics.builder().sent(2, 120)
                                               .lastOutPacketId(PacketId.of(513, 65535)).build(), context);
        ObjectNode expected = new ObjectMapper().createObjectNode().put("ipv4Id", 513).put("l4Checksum", 65535);
        assertEquals(expected, json.get("lastOutPacketId"));
        assertEquals(2, json.get("packetsOut").asLong());
        // What the REST purge reads back from such an object.
        ObjectNode id = (ObjectNode) json.get("lastOutPacketId");
        assertEquals(PacketId.of(513, 65535),
                     PacketId.of(JsonFields.number(id, "ipv4Id"), JsonFields.number(id, "l4Checksum")));
    }

    @Test
    public void theTriggerIsShownArmedFiredAndFailed() {
        ObjectNode json = codec.encode(BufferStatistics.builder().trigger(true, 3, 1).build(), context);
        assertTrue(json.get("triggerArmed").asBoolean());
        assertEquals(3, json.get("triggersFired").asLong());
        assertEquals(1, json.get("triggerFailures").asLong());
    }
}
