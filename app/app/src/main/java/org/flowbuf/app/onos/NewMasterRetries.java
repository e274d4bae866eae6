/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.net.DeviceId;
import org.slf4j.Logger;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.onlab.util.Tools.groupedThreads;

/**
 * A new master's work on a device (writing its entries there again), tried
 * again while it fails. Until the new master's flow store has taken the
 * device's new term over, it may still send the device's reads to the dead
 * master and fail (seen live: "Connection refused" from the killed
 * instance, 250 ms before "Synchronizing device flows"). The work is tried
 * again every {@value #RETRY_MS} ms, for as long as it is still wanted
 * (this instance is still the connected device's master), up to
 * {@value #ATTEMPTS} times.
 */
final class NewMasterRetries {

    static final long RETRY_MS = 100;
    static final int ATTEMPTS = 50;

    private final ScheduledExecutorService timer;
    private final Executor runner;
    private final Predicate<DeviceId> wanted;
    private final Consumer<DeviceId> work;
    private final Logger log;
    private final String what;

    /**
     * @param name   the timer thread's name
     * @param runner where the later attempts run (the component's worker,
     *               or directly on the timer thread)
     * @param wanted whether the work is still wanted on a device
     * @param work   the work; it throws a RuntimeException when it failed
     * @param log    where a device given up on is logged
     * @param what   what the work writes, for the log
     */
    NewMasterRetries(String name, Executor runner, Predicate<DeviceId> wanted,
                     Consumer<DeviceId> work, Logger log, String what) {
        this.timer = Executors.newSingleThreadScheduledExecutor(
                groupedThreads("flowbuf", name, log));
        this.runner = Objects.requireNonNull(runner);
        this.wanted = Objects.requireNonNull(wanted);
        this.work = Objects.requireNonNull(work);
        this.log = Objects.requireNonNull(log);
        this.what = Objects.requireNonNull(what);
    }

    /**
     * Does the work on a device now, on the caller's thread, and again later
     * while it fails.
     *
     * @param deviceId the device this instance now masters
     */
    void attempt(DeviceId deviceId) {
        attempt(deviceId, 1);
    }

    /** Stops the attempts pending. */
    void close() {
        timer.shutdownNow();
    }

    private void attempt(DeviceId deviceId, int attempt) {
        if (!wanted.test(deviceId)) {
            return;
        }
        try {
            work.accept(deviceId);
        } catch (RuntimeException e) {
            if (attempt >= ATTEMPTS || timer.isShutdown()) {
                log.warn("{}: {} not written for this new master after {} attempts: {}",
                         deviceId, what, attempt, e.getMessage());
                return;
            }
            try {
                timer.schedule(() -> runner.execute(() -> attempt(deviceId, attempt + 1)),
                               RETRY_MS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                log.debug("{}: closed, {} not tried again", deviceId, what);
            }
        }
    }
}
