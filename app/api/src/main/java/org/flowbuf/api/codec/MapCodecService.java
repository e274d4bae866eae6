/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import org.onosproject.codec.CodecService;
import org.onosproject.codec.JsonCodec;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A CodecService for use outside ONOS, where the core's codec manager does
 * not run: a map from type to codec.
 */
public final class MapCodecService implements CodecService {

    private final Map<Class<?>, JsonCodec<?>> codecs = new ConcurrentHashMap<>();

    @Override
    public Set<Class<?>> getCodecs() {
        return Set.copyOf(codecs.keySet());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> JsonCodec<T> getCodec(Class<T> type) {
        return (JsonCodec<T>) codecs.get(type);
    }

    @Override
    public <T> void registerCodec(Class<T> type, JsonCodec<T> codec) {
        codecs.put(type, codec);
    }

    @Override
    public void unregisterCodec(Class<?> type) {
        codecs.remove(type);
    }
}
