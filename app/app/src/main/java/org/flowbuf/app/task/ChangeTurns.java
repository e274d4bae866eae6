/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import com.google.common.util.concurrent.Striped;
import org.flowbuf.api.BufferId;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Whose turn it is to change a buffer. Changes of one buffer run one at a
 * time, in the order they take their turn; changes of different buffers run
 * in parallel, each with its own agent calls. A change of a device as a
 * whole (reconciling it with its agent, which compares every buffer with
 * what the agent holds) waits until no buffer of the device is changing,
 * and holds the others back while it runs.
 *
 * <p>Turns are striped locks (Guava's {@link Striped}): a buffer's turn is
 * the stripe its key hashes to, so an unrelated buffer shares a turn only
 * when the two collide among {@link #STRIPES} stripes. A caller that needs
 * several buffers takes them together ({@link #onBuffers}), in the stripes'
 * order, so two such callers never wait for each other in a circle; nothing
 * takes a second buffer's turn while holding one otherwise.
 */
final class ChangeTurns {

    /** Stripes of buffer turns: many more than buffers change at once. */
    static final int STRIPES = 4096;

    private final Striped<Lock> buffers = Striped.lazyWeakLock(STRIPES);
    private final Map<DeviceId, ReadWriteLock> devices = new ConcurrentHashMap<>();

    /**
     * Runs a change of one buffer in its turn.
     *
     * @param deviceId device of the buffer
     * @param id       buffer
     * @param change   the change
     * @param <T>      what it returns
     * @return what the change returned
     */
    <T> T onBuffer(DeviceId deviceId, BufferId id, Supplier<T> change) {
        return onBuffers(deviceId, List.of(id), change);
    }

    /**
     * Runs a change of several buffers of one device in their turns, taken
     * together.
     *
     * @param deviceId device of the buffers
     * @param ids      buffers
     * @param change   the change
     * @param <T>      what it returns
     * @return what the change returned
     */
    <T> T onBuffers(DeviceId deviceId, Collection<BufferId> ids, Supplier<T> change) {
        Lock device = device(deviceId).readLock();
        device.lock();
        try {
            List<Object> keys = new ArrayList<>();
            ids.forEach(id -> keys.add(List.of(deviceId, id)));
            return StripedTurns.inTurns(buffers, keys, change);
        } finally {
            device.unlock();
        }
    }

    /**
     * Runs a change of a device as a whole, when no buffer of it is changing.
     *
     * @param deviceId device
     * @param change   the change
     * @param <T>      what it returns
     * @return what the change returned
     */
    <T> T onDevice(DeviceId deviceId, Supplier<T> change) {
        Lock device = device(deviceId).writeLock();
        device.lock();
        try {
            return change.get();
        } finally {
            device.unlock();
        }
    }

    private ReadWriteLock device(DeviceId deviceId) {
        return devices.computeIfAbsent(deviceId, d -> new ReentrantReadWriteLock());
    }
}
