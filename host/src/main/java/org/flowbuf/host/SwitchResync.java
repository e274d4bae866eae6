/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Takes a switch back after its P4Runtime session was lost (the switch
 * restarted, or dropped the host): runs the host's resynchronisation of that
 * device on one background thread, again every {@code retry} until it
 * succeeds. A loss reported while a resynchronisation is pending is the same
 * loss.
 */
final class SwitchResync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SwitchResync.class);

    private final Consumer<DeviceId> resync;
    private final Duration retry;
    private final Set<DeviceId> pending = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
            r -> {
                Thread t = new Thread(r, "flowbuf-switch-resync");
                t.setDaemon(true);
                return t;
            });

    /**
     * Creates the resynchroniser.
     *
     * @param resync takes one device back; throws while it cannot
     * @param retry  wait between attempts
     */
    SwitchResync(Consumer<DeviceId> resync, Duration retry) {
        this.resync = Objects.requireNonNull(resync);
        this.retry = Objects.requireNonNull(retry);
    }

    /**
     * Says that the session with a device was lost.
     *
     * @param deviceId device
     */
    void lost(DeviceId deviceId) {
        if (pending.add(deviceId)) {
            LOG.warn("{}: P4Runtime session lost; taking the switch back", deviceId);
            executor.execute(() -> attempt(deviceId));
        }
    }

    /**
     * Whether a device waits for its resynchronisation.
     *
     * @param deviceId device
     * @return true while the session is lost
     */
    boolean pending(DeviceId deviceId) {
        return pending.contains(deviceId);
    }

    private void attempt(DeviceId deviceId) {
        // Cleared first: a loss during this attempt schedules another one.
        pending.remove(deviceId);
        try {
            resync.accept(deviceId);
        } catch (RuntimeException e) {
            LOG.info("{}: not taken back yet: {}", deviceId, e.getMessage());
            if (pending.add(deviceId) && !executor.isShutdown()) {
                executor.schedule(() -> attempt(deviceId), retry.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
