/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.HeavyHitter;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a {@link HeavyHitter} report (encode only: the switches make them).
 */
public final class HeavyHitterCodec extends JsonCodec<HeavyHitter> {

    @Override
    public ObjectNode encode(HeavyHitter h, CodecContext context) {
        return context.mapper().createObjectNode().put("deviceId", h.deviceId().toString())
                .put("ueAddress", h.ueAddress().toString())
                .put("appAddress", h.appAddress().toString()).put("ipProto", h.ipProto())
                .put("uePort", h.uePort()).put("appPort", h.appPort())
                .put("ewmaGapUs", h.ewmaGapUs()).put("cell", h.cell())
                .put("reportedAt", h.reportedAt().toString());
    }
}
