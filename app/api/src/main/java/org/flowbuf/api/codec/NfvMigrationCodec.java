/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.NfvMigration;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of an NFV flow migration.
 */
public final class NfvMigrationCodec extends JsonCodec<NfvMigration> {

    @Override
    public ObjectNode encode(NfvMigration m, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", m.id())
                .put("deviceId", m.deviceId().toString())
                .put("inPort", m.inPort().toLong())
                .put("bufferId", m.buffer().id())
                .put("pauseIntent", m.pauseIntent().id())
                .put("state", m.state().name());
        json.set("flow", context.codec(FlowFilter.class).encode(m.flow(), context));
        m.releasedTo().ifPresent(p -> json.put("releasedTo", p.toLong()));
        return json;
    }
}
