/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.QueueType;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a buffer spec; every field is optional in requests.
 */
public final class BufferSpecCodec extends JsonCodec<BufferSpec> {

    static final String CAPACITY_PACKETS = "capacityPackets";
    static final String CAPACITY_BYTES = "capacityBytes";
    static final String QUEUE_TYPE = "queueType";
    static final String OVERFLOW = "overflow";

    @Override
    public ObjectNode encode(BufferSpec spec, CodecContext context) {
        return context.mapper().createObjectNode()
                .put(CAPACITY_PACKETS, spec.capacityPackets())
                .put(CAPACITY_BYTES, spec.capacityBytes())
                .put(QUEUE_TYPE, spec.queueType().name())
                .put(OVERFLOW, spec.overflow().name());
    }

    @Override
    public BufferSpec decode(ObjectNode json, CodecContext context) {
        BufferSpec.Builder b = BufferSpec.builder();
        try {
            JsonFields.optionalNumber(json, CAPACITY_PACKETS).ifPresent(b::capacityPackets);
            JsonFields.optionalNumber(json, CAPACITY_BYTES).ifPresent(b::capacityBytes);
            JsonFields.optionalEnum(json, QUEUE_TYPE, QueueType.class).ifPresent(b::queueType);
            JsonFields.optionalEnum(json, OVERFLOW, OverflowPolicy.class).ifPresent(b::overflow);
            return b.build();
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("spec: %s", e.getMessage());
        }
    }
}
