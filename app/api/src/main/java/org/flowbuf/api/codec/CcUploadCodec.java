/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.CcUpload;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a connectionless upload.
 */
public final class CcUploadCodec extends JsonCodec<CcUpload> {

    @Override
    public ObjectNode encode(CcUpload u, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", u.id())
                .put("deviceId", u.deviceId().toString())
                .put("sensorPort", u.sensorPort().toLong())
                .put("bufferId", u.buffer().id())
                .put("state", u.state().name());
        json.set("flow", context.codec(FlowFilter.class).encode(u.flow(), context));
        u.collectorPort().ifPresent(p -> json.put("collectorPort", p.toLong()));
        return json;
    }
}
