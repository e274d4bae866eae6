/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app;

import org.flowbuf.api.FlowBufException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Runs many threads against one service at once: each thread runs its own
 * task, all released together, and every reply (a value, or the
 * FlowBufException refusal) is kept for the test to check.
 */
public final class Race {

    private Race() {
    }

    /** What one task answered: its value, or the refusal. */
    public static final class Reply {
        /** Index of the task. */
        public final int task;
        /** The value, when it answered. */
        public final Object value;
        /** The refusal, when it was refused. */
        public final FlowBufException refusal;

        Reply(int task, Object value, FlowBufException refusal) {
            this.task = task;
            this.value = value;
            this.refusal = refusal;
        }

        /**
         * Whether the task answered without a refusal.
         *
         * @return true when it answered
         */
        public boolean ok() {
            return refusal == null;
        }

        @Override
        public String toString() {
            return "task " + task + ": " + (ok() ? value
                    : refusal.reason() + " " + refusal.getMessage());
        }
    }

    /** A task of the race: may answer or throw a FlowBufException. */
    public interface Task {
        /**
         * Runs the task.
         *
         * @return its value
         */
        Object run();
    }

    /**
     * Runs the tasks on one thread each, released together; fails the test
     * on anything but an answer or a FlowBufException, or when they do not
     * finish within a minute.
     *
     * @param threads how many tasks
     * @param task    the task of each index
     * @return every reply, by task index
     */
    public static List<Reply> run(int threads, IntFunction<Task> task) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(threads);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        List<Future<Reply>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                int index = i;
                Task t = task.apply(i);
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    started.incrementAndGet();
                    try {
                        return new Reply(index, t.run(), null);
                    } catch (FlowBufException e) {
                        return new Reply(index, null, e);
                    }
                }));
            }
            assertTrue("threads did not start", ready.await(60, TimeUnit.SECONDS));
            go.countDown();
            List<Reply> replies = new ArrayList<>();
            for (Future<Reply> f : futures) {
                replies.add(f.get(60, TimeUnit.SECONDS));
            }
            return replies;
        } catch (Exception e) {
            fail("race did not finish: " + e);
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }
}
