/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/** A codec context with a mapper only: for a codec tested on its own (no nested codecs, no services). */
final class MapperOnlyContext implements CodecContext {

    private final ObjectMapper mapper = new ObjectMapper();

    @Override
    public ObjectMapper mapper() {
        return mapper;
    }

    @Override
    public <T> JsonCodec<T> codec(Class<T> type) {
        throw new UnsupportedOperationException(type.getName());
    }

    @Override
    public <T> T getService(Class<T> type) {
        throw new UnsupportedOperationException(type.getName());
    }
}
