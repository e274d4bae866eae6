/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Where the probe scheduler's work runs: a tick per flow every interval,
 * and the handling of returned probes (off the P4Runtime stream's thread,
 * since a reroute writes to the switches). A test runs both by hand.
 */
public interface ProbeTimer {

    /**
     * Runs a task every period, the first time at once; a late run does
     * not make the next ones come sooner (no catch-up burst).
     *
     * @param periodMs the period
     * @param task     the task
     * @return stops it
     */
    Runnable every(long periodMs, Runnable task);

    /**
     * Runs a task soon, in order with the ticks.
     *
     * @param task the task
     */
    void execute(Runnable task);

    /**
     * A timer on an executor (one thread keeps ticks and returned probes in order).
     *
     * @param executor the executor
     * @return timer
     */
    static ProbeTimer of(ScheduledExecutorService executor) {
        return new ProbeTimer() {
            @Override
            public Runnable every(long periodMs, Runnable task) {
                Future<?> f = executor.scheduleWithFixedDelay(task, 0, periodMs,
                                                              TimeUnit.MILLISECONDS);
                return () -> f.cancel(false);
            }

            @Override
            public void execute(Runnable task) {
                executor.execute(task);
            }
        };
    }
}
