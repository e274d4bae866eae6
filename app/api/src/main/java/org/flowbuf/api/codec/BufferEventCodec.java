/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a buffer event: its type, when, and the buffer as it was then;
 * a BUFFER_REATTACHED event also counts the packets re-attached and lost.
 */
public final class BufferEventCodec extends JsonCodec<BufferEvent> {

    @Override
    public ObjectNode encode(BufferEvent event, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("type", event.type().name())
                .put("time", event.time());
        json.set("buffer", context.codec(Buffer.class).encode(event.subject(), context));
        if (event.type() == BufferEvent.Type.BUFFER_REATTACHED) {
            json.put("reattachedPackets", event.reattachedPackets())
                    .put("lostPackets", event.lostPackets());
        }
        return json;
    }
}
