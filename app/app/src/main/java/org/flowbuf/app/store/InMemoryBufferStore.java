/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.VportId;
import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A single-process BufferStore (embedded host, tests). Each device's buffers
 * are kept by id and indexed by vport; a put or remove of one buffer changes
 * both under that buffer's entry, so the index never names a buffer the
 * store does not hold with that vport once the call returned.
 */
public final class InMemoryBufferStore implements BufferStore {

    private final Map<DeviceId, DeviceBuffers> devices = new ConcurrentHashMap<>();

    /** The buffers of one device, and which buffer each vport is bound to. */
    private static final class DeviceBuffers {
        private final Map<BufferId, Buffer> byId = new ConcurrentHashMap<>();
        private final Map<VportId, BufferId> byVport = new ConcurrentHashMap<>();
    }

    @Override
    public void put(Buffer buffer) {
        DeviceBuffers device = devices.computeIfAbsent(buffer.deviceId(), d -> new DeviceBuffers());
        device.byId.compute(buffer.id(), (id, old) -> {
            if (old != null && !old.vport().equals(buffer.vport())) {
                device.byVport.remove(old.vport(), id);
            }
            device.byVport.put(buffer.vport(), id);
            return buffer;
        });
    }

    @Override
    public Optional<Buffer> get(DeviceId deviceId, BufferId id) {
        DeviceBuffers device = devices.get(deviceId);
        return device == null ? Optional.empty() : Optional.ofNullable(device.byId.get(id));
    }

    @Override
    public void remove(DeviceId deviceId, BufferId id) {
        DeviceBuffers device = devices.get(deviceId);
        if (device != null) {
            device.byId.computeIfPresent(id, (key, old) -> {
                device.byVport.remove(old.vport(), key);
                return null;
            });
        }
    }

    @Override
    public Optional<BufferId> boundTo(DeviceId deviceId, VportId vport) {
        DeviceBuffers device = devices.get(deviceId);
        return device == null ? Optional.empty() : Optional.ofNullable(device.byVport.get(vport));
    }

    @Override
    public Collection<Buffer> buffers(DeviceId deviceId) {
        DeviceBuffers device = devices.get(deviceId);
        if (device == null) {
            return List.of();
        }
        return device.byId.values().stream()
                .sorted(Comparator.comparing(b -> b.id().id()))
                .collect(Collectors.toUnmodifiableList());
    }
}
