/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Vport;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a vport.
 */
public final class VportCodec extends JsonCodec<Vport> {

    @Override
    public ObjectNode encode(Vport vport, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", vport.id().id())
                .put("switchPort", vport.switchPort())
                .put("mode", vport.mode().name());
        vport.buffer().ifPresent(b -> json.put("buffer", b.id()));
        if (vport.tag() != 0) {
            json.put("tag", vport.tag());
        }
        return json;
    }
}
