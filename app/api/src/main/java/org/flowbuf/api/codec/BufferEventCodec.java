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
 * JSON of a buffer event: its type, when, and the buffer as it was then.
 */
public final class BufferEventCodec extends JsonCodec<BufferEvent> {

    @Override
    public ObjectNode encode(BufferEvent event, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("type", event.type().name())
                .put("time", event.time());
        json.set("buffer", context.codec(Buffer.class).encode(event.subject(), context));
        return json;
    }
}
