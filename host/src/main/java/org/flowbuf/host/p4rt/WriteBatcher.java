/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.Status;
import org.onlab.util.Tools;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Carries the Writes that callers ask for at the same time to one device in
 * one P4Runtime Write (group commit): callers queue their updates; when no
 * Write is under way, the caller sends everything queued in one Write on its
 * own thread (a lone request costs no hand-off to another thread and back,
 * two wake-ups that take milliseconds on a loaded machine); the callers
 * that queued meanwhile wait, and what is still queued when it has its
 * answer goes in the next Write, sent by the device's writer thread or by
 * the next caller. Each caller gets the outcome of
 * its own updates: the target answers a Write update by update (P4Runtime
 * CONTINUE_ON_ERROR, one error per update in the status details), so a
 * refused update refuses only the request it came from. A Write refused as
 * a whole (no per-update errors: the target unreachable, not primary) is
 * sent again request by request, so each request gets its own answer.
 *
 * <p>Updates of different requests must not depend on each other's order:
 * the target may apply a Write's updates in any order. Requests of one
 * object never share a Write here: its next request starts after the
 * previous one returned.
 */
public final class WriteBatcher implements AutoCloseable {

    /** Most updates in one Write; more wait for the next one. */
    static final int MAX_UPDATES = 1024;

    private final Consumer<List<Update>> target;
    private final Queue<Pending> queue = new ConcurrentLinkedQueue<>();
    /** A Write is under way (by a caller or the writer thread): others queue. */
    private final AtomicBoolean writing = new AtomicBoolean();
    private final ExecutorService writer;

    /**
     * Creates a batcher in front of a target's Write, with its writer thread.
     *
     * @param target sends one Write; throws P4RuntimeWriteException when refused
     * @param name   names the writer thread (the device)
     */
    public WriteBatcher(Consumer<List<Update>> target, String name) {
        this.target = Objects.requireNonNull(target);
        ThreadFactory named = Tools.groupedThreads("flowbuf/p4rt-writes", name + "-%d");
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = named.newThread(r);
            t.setDaemon(true); // the host exits without waiting for a session's close
            return t;
        });
    }

    /**
     * Writes updates, in the next Write to the target, and returns once the
     * target answered for them.
     *
     * @param updates updates of one request
     * @throws P4RuntimeWriteException when the target refused one of them,
     *                                 with the failed indexes among these updates
     */
    public void write(List<Update> updates) {
        if (updates.isEmpty()) {
            return;
        }
        if (writer.isShutdown()) {
            throw closedSession();
        }
        Pending mine = new Pending(updates);
        queue.add(mine);
        if (writing.compareAndSet(false, true)) {
            writeUntilAnswered(mine);
        }
        try {
            mine.done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof P4RuntimeWriteException) {
                throw (P4RuntimeWriteException) e.getCause();
            }
            throw e;
        }
    }

    // On the caller's thread: what is queued (its own request first among
    // it, or in a later Write behind 1,024 updates), until it has its answer.
    private void writeUntilAnswered(Pending mine) {
        try {
            while (!mine.done.isDone()) {
                List<Pending> batch = take();
                if (batch.isEmpty()) {
                    break;
                }
                send(batch);
            }
        } finally {
            writing.set(false);
            handOffQueued();
        }
    }

    // The writer thread: everything queued.
    private void writeQueued() {
        if (!writing.compareAndSet(false, true)) {
            return; // a caller is writing: it hands off what it leaves
        }
        try {
            for (List<Pending> batch = take(); !batch.isEmpty(); batch = take()) {
                send(batch);
            }
        } finally {
            writing.set(false);
            handOffQueued();
        }
    }

    // Whoever stops writing looks at the queue after clearing the flag: a
    // request queued while the flag was set (its caller did not write) is
    // seen here and goes to the writer thread, unless a caller took it.
    private void handOffQueued() {
        if (queue.isEmpty()) {
            return;
        }
        try {
            writer.execute(this::writeQueued);
        } catch (RejectedExecutionException e) {
            refuseQueued();
        }
    }

    private static P4RuntimeWriteException closedSession() {
        return new P4RuntimeWriteException(Status.Code.UNAVAILABLE,
                                           "the session with the switch is closed", List.of());
    }

    /** Stops the writer thread; requests still queued are refused. */
    @Override
    public void close() {
        writer.shutdownNow();
        refuseQueued();
    }

    private void refuseQueued() {
        for (Pending left = queue.poll(); left != null; left = queue.poll()) {
            left.done.completeExceptionally(new P4RuntimeWriteException(
                    Status.Code.UNAVAILABLE, "the session with the switch closed", List.of()));
        }
    }

    private List<Pending> take() {
        List<Pending> batch = new ArrayList<>();
        int updates = 0;
        Pending next = queue.peek();
        while (next != null && (batch.isEmpty() || updates + next.updates.size() <= MAX_UPDATES)) {
            batch.add(queue.poll());
            updates += next.updates.size();
            next = queue.peek();
        }
        return batch;
    }

    private void send(List<Pending> batch) {
        List<Update> all = new ArrayList<>();
        batch.forEach(p -> all.addAll(p.updates));
        try {
            target.accept(all);
            batch.forEach(p -> p.done.complete(null));
        } catch (P4RuntimeWriteException e) {
            if (e.failedUpdates().isEmpty() && batch.size() > 1) {
                batch.forEach(p -> sendAlone(p));
            } else {
                answerEach(batch, e);
            }
        } catch (RuntimeException e) {
            batch.forEach(p -> p.done.completeExceptionally(e));
        }
    }

    private void sendAlone(Pending p) {
        try {
            target.accept(p.updates);
            p.done.complete(null);
        } catch (RuntimeException e) {
            p.done.completeExceptionally(e);
        }
    }

    // Each request gets the errors of its own updates, or success.
    private static void answerEach(List<Pending> batch, P4RuntimeWriteException e) {
        List<Integer> failed = e.failedUpdates().orElse(List.of());
        int start = 0;
        for (Pending p : batch) {
            int end = start + p.updates.size();
            List<Integer> mine = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (int k = 0; k < failed.size(); k++) {
                int index = failed.get(k);
                if (index >= start && index < end) {
                    mine.add(index - start);
                    errors.add(k < e.updateErrors().size() ? e.updateErrors().get(k) : "");
                }
            }
            if (e.failedUpdates().isEmpty()) {
                p.done.completeExceptionally(e); // a lone request: its own answer
            } else if (mine.isEmpty()) {
                p.done.complete(null);
            } else {
                p.done.completeExceptionally(new P4RuntimeWriteException(
                        codeOf(errors.get(0), e.code()), "write refused: " + String.join("; ", errors),
                        errors, mine));
            }
            start = end;
        }
    }

    // An update error reads "CODE: message" (P4RuntimeClient#failure).
    private static Status.Code codeOf(String error, Status.Code fallback) {
        int colon = error.indexOf(':');
        if (colon > 0) {
            try {
                return Status.Code.valueOf(error.substring(0, colon));
            } catch (IllegalArgumentException e) {
                return fallback;
            }
        }
        return fallback;
    }

    /** One request's updates and its answer. */
    private static final class Pending {
        private final List<Update> updates;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Pending(List<Update> updates) {
            this.updates = List.copyOf(updates);
        }
    }
}
