/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a pause or resume intent.
 */
public final class FlowBufIntentCodec extends JsonCodec<FlowBufIntent> {

    @Override
    public ObjectNode encode(FlowBufIntent intent, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", intent.id().id())
                .put("type", intent.type().name())
                .put("deviceId", intent.deviceId().toString())
                .put(intent.type() == FlowBufIntent.Type.PAUSE ? "inPort" : "outPort",
                     intent.port().toLong())
                .put("state", intent.state().name())
                .put("owner", intent.owner());
        json.set("filter", context.codec(FlowFilter.class).encode(intent.filter(), context));
        intent.bufferId().ifPresent(b -> json.put("bufferId", b.id()));
        intent.failure().ifPresent(f -> json.put("failure", f));
        return json;
    }
}
