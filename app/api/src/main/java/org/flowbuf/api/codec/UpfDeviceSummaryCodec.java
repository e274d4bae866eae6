/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/** JSON of a device's UPF counts: {"deviceId", "sessions", "pausedDownlinks"} (encode only). */
public final class UpfDeviceSummaryCodec extends JsonCodec<UpfDeviceSummary> {

    @Override
    public ObjectNode encode(UpfDeviceSummary s, CodecContext context) {
        return context.mapper().createObjectNode().put("deviceId", s.deviceId().toString())
                .put("sessions", s.sessions()).put("pausedDownlinks", s.pausedDownlinks());
    }
}
