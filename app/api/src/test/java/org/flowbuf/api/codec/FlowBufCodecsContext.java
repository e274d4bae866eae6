/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/** A codec context with every FlowBuf codec and no services: for codecs that nest others. */
final class FlowBufCodecsContext implements CodecContext {

    private final ObjectMapper mapper = new ObjectMapper();
    private final MapCodecService codecs = new MapCodecService();

    FlowBufCodecsContext() {
        FlowBufCodecs.register(codecs);
    }

    @Override
    public ObjectMapper mapper() {
        return mapper;
    }

    @Override
    public <T> JsonCodec<T> codec(Class<T> type) {
        return codecs.getCodec(type);
    }

    @Override
    public <T> T getService(Class<T> type) {
        throw new UnsupportedOperationException(type.getName());
    }
}
