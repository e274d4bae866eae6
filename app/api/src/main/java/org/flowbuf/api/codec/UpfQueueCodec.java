/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfQueue;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/** JSON of a QFI → queue mapping: {"deviceId", "qfi", "queue"}. */
public final class UpfQueueCodec extends JsonCodec<UpfQueue> {

    static final String DEVICE_ID = "deviceId";
    static final String QFI = "qfi";
    static final String QUEUE = "queue";

    @Override
    public ObjectNode encode(UpfQueue q, CodecContext context) {
        return context.mapper().createObjectNode().put(DEVICE_ID, q.deviceId().toString())
                .put(QFI, q.qfi()).put(QUEUE, q.queue());
    }

    @Override
    public UpfQueue decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "queue", List.of(DEVICE_ID, QFI, QUEUE));
        return new UpfQueue(UpfJson.deviceId(json, DEVICE_ID), JsonFields.number(json, QFI),
                            JsonFields.number(json, QUEUE));
    }
}
