/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.TriggerFire;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of an armed move's fire: {"moved", "reportSync": NONE, SYNCED or
 * UNSYNCED, "purgedPackets"}.
 */
public final class TriggerFireCodec extends JsonCodec<TriggerFire> {

    @Override
    public ObjectNode encode(TriggerFire fire, CodecContext context) {
        return context.mapper().createObjectNode()
                .put("moved", fire.moved())
                .put("reportSync", fire.reportSync().name())
                .put("purgedPackets", fire.purgedPackets());
    }
}
