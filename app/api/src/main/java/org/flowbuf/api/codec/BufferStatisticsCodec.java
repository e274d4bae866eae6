/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferStatistics;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a buffer's counters; "lastOutPacketId" ({"ipv4Id", "l4Checksum"})
 * only once the buffer has transmitted a packet that has one.
 */
public final class BufferStatisticsCodec extends JsonCodec<BufferStatistics> {

    @Override
    public ObjectNode encode(BufferStatistics s, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("packetsIn", s.packetsIn())
                .put("bytesIn", s.bytesIn())
                .put("packetsOut", s.packetsOut())
                .put("bytesOut", s.bytesOut())
                .put("packetsDropped", s.packetsDropped())
                .put("occupancyPackets", s.occupancyPackets())
                .put("occupancyBytes", s.occupancyBytes())
                .put("highWatermarkPackets", s.highWatermarkPackets())
                .put("oldestPacketAgeNs", s.oldestPacketAgeNanos())
                .put("triggerArmed", s.triggerArmed())
                .put("triggersFired", s.triggersFired())
                .put("triggerFailures", s.triggerFailures());
        // The same field names as the purge request body.
        s.lastOutPacketId().ifPresent(id -> json.putObject("lastOutPacketId")
                .put("ipv4Id", id.ipv4Id())
                .put("l4Checksum", id.l4Checksum()));
        return json;
    }
}
