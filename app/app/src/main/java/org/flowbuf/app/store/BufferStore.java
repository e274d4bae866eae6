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
import java.util.Optional;

/**
 * Where the Buffer Service keeps what it created. In ONOS a distributed
 * implementation keeps it consistent across the cluster; the embedded host
 * uses {@link InMemoryBufferStore}.
 */
public interface BufferStore {

    /**
     * Stores a buffer, replacing an earlier version.
     *
     * @param buffer the buffer
     */
    void put(Buffer buffer);

    /**
     * Returns a buffer.
     *
     * @param deviceId device
     * @param id       buffer id
     * @return the buffer, if stored
     */
    Optional<Buffer> get(DeviceId deviceId, BufferId id);

    /**
     * Removes a buffer.
     *
     * @param deviceId device
     * @param id       buffer id
     */
    void remove(DeviceId deviceId, BufferId id);

    /**
     * Returns the buffer bound to a vport, by a lookup that does not list
     * the device's buffers: a create asks it for every vport it tries.
     *
     * @param deviceId device
     * @param vport    vport
     * @return the id of the buffer bound to it, if one is stored
     */
    Optional<BufferId> boundTo(DeviceId deviceId, VportId vport);

    /**
     * Returns the buffers of a device.
     *
     * @param deviceId device
     * @return buffers
     */
    Collection<Buffer> buffers(DeviceId deviceId);
}
