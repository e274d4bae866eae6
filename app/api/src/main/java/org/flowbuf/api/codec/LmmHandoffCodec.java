/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of an LMM handoff.
 */
public final class LmmHandoffCodec extends JsonCodec<LmmHandoff> {

    @Override
    public ObjectNode encode(LmmHandoff h, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", h.id())
                .put("state", h.state().name())
                .put("markerReports", h.markerReports());
        h.sourceBuffer().ifPresent(b -> json.put("sourceBuffer", b.id()));
        h.forwardedBuffer().ifPresent(b -> json.put("forwardedBuffer", b.id()));
        h.newPathBuffer().ifPresent(b -> json.put("newPathBuffer", b.id()));
        json.set("plan", context.codec(HandoffPlan.class).encode(h.plan(), context));
        h.failure().ifPresent(f -> json.put("failure", f));
        return json;
    }
}
