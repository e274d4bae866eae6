/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferSpec;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a buffer (read-only: buffers are created from a request, not
 * decoded).
 */
public final class BufferCodec extends JsonCodec<Buffer> {

    @Override
    public ObjectNode encode(Buffer buffer, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("deviceId", buffer.deviceId().toString())
                .put("id", buffer.id().id())
                .put("owner", buffer.owner())
                .put("state", buffer.state().name())
                .put("vport", buffer.vport().id())
                .put("mode", buffer.mode().name())
                .put("occupancyPackets", buffer.occupancyPackets());
        json.set("spec", context.codec(BufferSpec.class).encode(buffer.spec(), context));
        return json;
    }
}
