/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.app.store.BufferStore;
import org.onosproject.net.DeviceId;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Buffers made ahead of need: empty BUFFERING buffers of the default spec
 * that the service owns ({@link #OWNER}) until an application takes one.
 * Which buffers are ready is read from the store (their owner), so it
 * survives whatever the store survives (a controller that lost its store
 * adopts them as the operator's, like any buffer it finds); topping up runs
 * off the caller's thread, one request per device at a time.
 */
final class ReadyBuffers {

    /** The owner of a buffer nobody has taken yet. */
    static final String OWNER = "org.flowbuf.ready";
    /** Ready buffers are made with ids ready-1, ready-2, ... */
    static final String ID_PREFIX = "ready-";
    /** What a ready buffer is made as: what a pause asks for. */
    static final BufferSpec SPEC = BufferSpec.defaults();
    /**
     * How long a top-up waits after it was asked for: longer than a hybrid
     * promotion's hold, session Write and end marker on a loaded 2-core
     * machine (10-30 ms), which a top-up 10 ms after the hold shared the
     * cores and the switch with.
     */
    static final long TOP_UP_DELAY_MS = 50;

    private final AtomicLong serial = new AtomicLong();
    private final BufferStore store;
    private final Executor topUps;
    private final Set<DeviceId> queued = ConcurrentHashMap.newKeySet();
    private final Set<List<Object>> claimed = ConcurrentHashMap.newKeySet();

    ReadyBuffers(BufferStore store, Executor topUps) {
        this.store = store;
        this.topUps = topUps;
    }

    /**
     * A thread that exists only while there is topping up to do, and runs
     * each top-up {@link #TOP_UP_DELAY_MS} after it was asked for: the
     * request that took a buffer then has its rule written and its answer
     * sent before the agent is called again, instead of sharing the
     * switch and the two cores with that call.
     *
     * @return executor of top-ups
     */
    static Executor ownThread() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "flowbuf-ready-buffers");
            t.setDaemon(true);
            return t;
        });
        executor.setKeepAliveTime(30, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        return task -> executor.schedule(task, TOP_UP_DELAY_MS, TimeUnit.MILLISECONDS);
    }

    static boolean isReady(Buffer buffer) {
        return OWNER.equals(buffer.owner());
    }

    // The ready buffer to hand out first: the oldest made that no other
    // caller has claimed. The claim is one atomic add, so two callers never
    // take the same ready buffer; the caller releases it when done.
    Optional<Buffer> claimFirst(DeviceId deviceId) {
        return store.buffers(deviceId).stream().filter(ReadyBuffers::isReady)
                .filter(b -> b.state() == BufferState.BUFFERING)
                .sorted(Comparator.comparing(b -> b.id().id()))
                .filter(b -> claimed.add(List.of(deviceId, b.id())))
                .findFirst();
    }

    // Gives a claimed ready buffer back (taken, removed, or left as it was).
    void release(Buffer claimedBuffer) {
        claimed.remove(List.of(claimedBuffer.deviceId(), claimedBuffer.id()));
    }

    long count(DeviceId deviceId) {
        return store.buffers(deviceId).stream().filter(ReadyBuffers::isReady).count();
    }

    // An id no buffer of the device has (the serial restarts with the controller).
    BufferId nextId(DeviceId deviceId) {
        while (true) {
            BufferId id = BufferId.bufferId(ID_PREFIX + serial.incrementAndGet());
            if (store.get(deviceId, id).isEmpty()) {
                return id;
            }
        }
    }

    // Runs topUp for the device later, unless a run is already waiting.
    void topUpLater(DeviceId deviceId, Consumer<DeviceId> topUp) {
        if (queued.add(deviceId)) {
            topUps.execute(() -> {
                queued.remove(deviceId);
                topUp.accept(deviceId);
            });
        }
    }
}
