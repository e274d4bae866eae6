/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmSession;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of an FMM session: id, state, serving, target (during a handoff),
 * multicastGroup, buffers {eNB: buffer}, counters {handoffs, unsynced, releasedOnSignal,
 * heldOnSignal, purgedPackets, lastSyncMicros}, plan, failure.
 */
public final class FmmSessionCodec extends JsonCodec<FmmSession> {

    @Override
    public ObjectNode encode(FmmSession s, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", s.id())
                .put("state", s.state().name())
                .put("serving", s.serving().toString());
        s.target().ifPresent(t -> json.put("target", t.toString()));
        json.put("multicastGroup", s.multicastGroup());
        ObjectNode buffers = json.putObject("buffers");
        s.buffers().forEach((enb, buffer) -> buffers.put(enb.toString(), buffer.id()));
        FmmSession.Counters c = s.counters();
        json.putObject("counters").put("handoffs", c.handoffs()).put("unsynced", c.unsynced())
                .put("purgedPackets", c.purgedPackets())
                .put("lastSyncMicros", c.lastSyncMicros())
                .put("releasedOnSignal", c.releasedOnSignal())
                .put("heldOnSignal", c.heldOnSignal());
        json.set("plan", context.codec(FmmPlan.class).encode(s.plan(), context));
        s.failure().ifPresent(f -> json.put("failure", f));
        return json;
    }
}
