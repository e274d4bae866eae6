/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UePlacement;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of {@link UePlacement}: {"ueAddress", "path": "FAST" or "SLOW",
 * "moving", "rateBps", "promotions", "demotions", "lastMoveUs", "lastActiveUs"}.
 */
public final class UePlacementCodec extends JsonCodec<UePlacement> {

    @Override
    public ObjectNode encode(UePlacement p, CodecContext context) {
        return context.mapper().createObjectNode().put("ueAddress", p.ueAddress().toString())
                .put("path", p.path().name()).put("moving", p.moving()).put("rateBps", p.rateBps())
                .put("promotions", p.promotions()).put("demotions", p.demotions())
                .put("lastMoveUs", p.lastMoveMicros())
                .put("lastActiveUs", p.lastActiveMicros());
    }
}
