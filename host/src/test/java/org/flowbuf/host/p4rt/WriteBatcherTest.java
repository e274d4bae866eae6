/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.Status;
import org.junit.After;
import org.junit.Test;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Concurrent requests share Writes, and each gets the answer for its own
 * updates: a refused update refuses only its request; a Write refused as a
 * whole is sent again request by request.
 */
public class WriteBatcherTest {

    private static final int THREADS = 64;
    private static final Update GOOD = Update.newBuilder().setType(Update.Type.INSERT).build();
    private static final Update BAD = Update.newBuilder().setType(Update.Type.DELETE).build();

    private final List<Integer> writeSizes = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    private WriteBatcher batcher;

    @After
    public void tearDown() {
        pool.shutdownNow();
        if (batcher != null) {
            batcher.close();
        }
    }

    // Refuses each DELETE update, with one error per update as P4Runtime
    // targets answer.
    private static void refuseDeletes(List<Update> updates) {
        List<Integer> failed = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < updates.size(); i++) {
            if (updates.get(i).getType() == Update.Type.DELETE) {
                failed.add(i);
                errors.add("NOT_FOUND: no entry " + i);
            }
        }
        if (!failed.isEmpty()) {
            throw new P4RuntimeWriteException(Status.Code.NOT_FOUND, "write refused", errors,
                                              failed);
        }
    }

    private List<Throwable> race(Consumer<Integer> request) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Throwable>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int index = i;
            futures.add(pool.submit(() -> {
                go.await();
                try {
                    request.accept(index);
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            }));
        }
        go.countDown();
        List<Throwable> outcomes = new ArrayList<>();
        for (Future<Throwable> f : futures) {
            outcomes.add(f.get(30, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    public void concurrentRequestsShareWritesAndGetTheirOwnAnswers() throws Exception {
        batcher = new WriteBatcher(updates -> {
            writeSizes.add(updates.size());
            sleep(5);
            refuseDeletes(updates);
        }, "test");
        // Odd requests carry a good and a bad update: only they are refused,
        // each with the index of its own bad update.
        List<Throwable> outcomes = race(i -> batcher.write(
                i % 2 == 0 ? List.of(GOOD) : List.of(GOOD, BAD)));
        for (int i = 0; i < THREADS; i++) {
            Throwable t = outcomes.get(i);
            if (i % 2 == 0) {
                assertEquals("request " + i, null, t);
            } else {
                assertTrue("request " + i + ": " + t, t instanceof P4RuntimeWriteException);
                P4RuntimeWriteException e = (P4RuntimeWriteException) t;
                assertEquals(Status.Code.NOT_FOUND, e.code());
                assertEquals(List.of(1), e.failedUpdates().orElseThrow());
                assertEquals(1, e.updateErrors().size());
            }
        }
        int updates = writeSizes.stream().mapToInt(Integer::intValue).sum();
        assertEquals("every update written once", THREADS / 2 * 3, updates);
        assertTrue("64 requests in " + writeSizes.size() + " Writes: not batched",
                   writeSizes.size() < THREADS);
    }

    @Test
    public void aWriteRefusedAsAWholeIsSentAgainRequestByRequest() throws Exception {
        // Refuses any Write of more than one update, without per-update errors.
        batcher = new WriteBatcher(updates -> {
            writeSizes.add(updates.size());
            sleep(5);
            if (updates.size() > 1) {
                throw new P4RuntimeWriteException(Status.Code.UNAVAILABLE, "busy", List.of());
            }
        }, "test");
        List<Throwable> outcomes = race(i -> batcher.write(List.of(GOOD)));
        outcomes.forEach(t -> assertEquals(null, t));
        assertTrue("some Write carried several requests", writeSizes.stream().anyMatch(n -> n > 1));
    }

    @Test
    public void aLoneRequestIsWrittenOnItsCallersThread() {
        List<Thread> writers = Collections.synchronizedList(new ArrayList<>());
        batcher = new WriteBatcher(updates -> writers.add(Thread.currentThread()), "test");
        batcher.write(List.of(GOOD));
        batcher.write(List.of(GOOD, GOOD));
        assertEquals("no hand-off to the writer thread and back",
                     List.of(Thread.currentThread(), Thread.currentThread()), writers);
    }

    @Test
    public void requestsQueuedWhileACallerWritesGoInTheNextWrite() throws Exception {
        CountDownLatch firstWriteBegun = new CountDownLatch(1);
        CountDownLatch secondQueued = new CountDownLatch(1);
        batcher = new WriteBatcher(updates -> {
            writeSizes.add(updates.size());
            if (firstWriteBegun.getCount() > 0) {
                firstWriteBegun.countDown();
                try {
                    secondQueued.await(10, TimeUnit.SECONDS);
                    Thread.sleep(50); // the second caller queues behind this Write
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "test");
        Future<?> first = pool.submit(() -> batcher.write(List.of(GOOD)));
        assertTrue(firstWriteBegun.await(10, TimeUnit.SECONDS));
        Future<?> second = pool.submit(() -> {
            secondQueued.countDown();
            batcher.write(List.of(GOOD, GOOD));
        });
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(1, 2), writeSizes);
    }

    @Test
    public void aClosedBatcherRefusesRequests() {
        batcher = new WriteBatcher(updates -> { }, "test");
        batcher.close();
        try {
            batcher.write(List.of(GOOD));
            fail("written after close");
        } catch (P4RuntimeWriteException e) {
            assertEquals(Status.Code.UNAVAILABLE, e.code());
        }
    }
}
