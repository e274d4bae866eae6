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
 * JSON of a buffer's counters.
 */
public final class BufferStatisticsCodec extends JsonCodec<BufferStatistics> {

    @Override
    public ObjectNode encode(BufferStatistics s, CodecContext context) {
        return context.mapper().createObjectNode()
                .put("packetsIn", s.packetsIn())
                .put("bytesIn", s.bytesIn())
                .put("packetsOut", s.packetsOut())
                .put("bytesOut", s.bytesOut())
                .put("packetsDropped", s.packetsDropped())
                .put("occupancyPackets", s.occupancyPackets())
                .put("occupancyBytes", s.occupancyBytes())
                .put("highWatermarkPackets", s.highWatermarkPackets())
                .put("oldestPacketAgeNs", s.oldestPacketAgeNanos());
    }
}
