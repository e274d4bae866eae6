/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/** A single-process BufferStore (embedded host, tests). */
public final class InMemoryBufferStore implements BufferStore {

    private final Map<DeviceId, Map<BufferId, Buffer>> buffers = new ConcurrentHashMap<>();

    @Override
    public void put(Buffer buffer) {
        buffers.computeIfAbsent(buffer.deviceId(), d -> new ConcurrentHashMap<>())
                .put(buffer.id(), buffer);
    }

    @Override
    public Optional<Buffer> get(DeviceId deviceId, BufferId id) {
        return Optional.ofNullable(buffers.getOrDefault(deviceId, Map.of()).get(id));
    }

    @Override
    public void remove(DeviceId deviceId, BufferId id) {
        buffers.getOrDefault(deviceId, new ConcurrentHashMap<>()).remove(id);
    }

    @Override
    public Collection<Buffer> buffers(DeviceId deviceId) {
        return List.copyOf(buffers.getOrDefault(deviceId, Map.of()).values().stream()
                                   .sorted((a, b) -> a.id().id().compareTo(b.id().id()))
                                   .collect(Collectors.toList()));
    }
}
