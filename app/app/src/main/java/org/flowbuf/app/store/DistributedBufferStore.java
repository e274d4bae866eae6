/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.QueueType;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.onlab.util.KryoNamespace;
import org.onosproject.net.DeviceId;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Buffers in an ONOS ConsistentMap: strongly consistent, because a buffer's
 * vport binding decides where packets go and every instance must see the
 * same binding after a mastership change. Occupancy is stored only as last
 * seen; the agent is the source of truth for it. A second ConsistentMap
 * indexes the bindings by (device, vport), so a create asks whether a vport
 * is bound without reading every buffer; a put writes the index before the
 * buffer and a remove after it, so a vport whose buffer is stored is always
 * in the index.
 */
public final class DistributedBufferStore implements BufferStore {

    /** Name of the map in the cluster. */
    static final String MAP_NAME = "flowbuf-buffers";
    /** Name of the index of bound vports in the cluster. */
    static final String VPORTS_MAP_NAME = "flowbuf-buffer-vports";
    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(Key.class, VportKey.class, Buffer.class, BufferId.class,
                              VportId.class,
                              BufferSpec.class, QueueType.class, OverflowPolicy.class,
                              VportMode.class)
                    .build("flowbuf-buffers"));

    private final ConsistentMap<Key, Buffer> buffers;
    private final ConsistentMap<VportKey, BufferId> vports;

    /** Map key: a buffer id is unique on its device only. */
    static final class Key {
        private final DeviceId deviceId;
        private final BufferId id;

        Key(DeviceId deviceId, BufferId id) {
            this.deviceId = deviceId;
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && deviceId.equals(((Key) o).deviceId)
                    && id.equals(((Key) o).id);
        }

        @Override
        public int hashCode() {
            return Objects.hash(deviceId, id);
        }
    }

    /** Index key: a vport is unique on its device only. */
    static final class VportKey {
        private final DeviceId deviceId;
        private final VportId vport;

        VportKey(DeviceId deviceId, VportId vport) {
            this.deviceId = deviceId;
            this.vport = vport;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VportKey && deviceId.equals(((VportKey) o).deviceId)
                    && vport.equals(((VportKey) o).vport);
        }

        @Override
        public int hashCode() {
            return Objects.hash(deviceId, vport);
        }
    }

    /**
     * Creates the store on ONOS's storage service.
     *
     * @param storage storage service
     */
    public DistributedBufferStore(StorageService storage) {
        this.buffers = storage.<Key, Buffer>consistentMapBuilder().withName(MAP_NAME)
                .withSerializer(SERIALIZER).build();
        this.vports = storage.<VportKey, BufferId>consistentMapBuilder()
                .withName(VPORTS_MAP_NAME).withSerializer(SERIALIZER).build();
    }

    @Override
    public void put(Buffer buffer) {
        DeviceId deviceId = buffer.deviceId();
        vports.put(new VportKey(deviceId, buffer.vport()), buffer.id());
        Buffer old = Versioned.valueOrNull(buffers.put(new Key(deviceId, buffer.id()), buffer));
        if (old != null && !old.vport().equals(buffer.vport())) {
            vports.remove(new VportKey(deviceId, old.vport()), buffer.id());
        }
    }

    @Override
    public Optional<Buffer> get(DeviceId deviceId, BufferId id) {
        return Optional.ofNullable(Versioned.valueOrNull(buffers.get(new Key(deviceId, id))));
    }

    @Override
    public void remove(DeviceId deviceId, BufferId id) {
        Buffer old = Versioned.valueOrNull(buffers.remove(new Key(deviceId, id)));
        if (old != null) {
            vports.remove(new VportKey(deviceId, old.vport()), id);
        }
    }

    @Override
    public Optional<BufferId> boundTo(DeviceId deviceId, VportId vport) {
        return Optional.ofNullable(Versioned.valueOrNull(vports.get(new VportKey(deviceId, vport))));
    }

    @Override
    public Collection<Buffer> buffers(DeviceId deviceId) {
        return buffers.values().stream().map(Versioned::value)
                .filter(b -> b.deviceId().equals(deviceId)).collect(Collectors.toList());
    }
}
