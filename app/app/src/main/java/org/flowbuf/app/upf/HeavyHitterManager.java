/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Heavy-hitter detection: writes the settings to the switches (through a
 * {@link Writer}), keeps the latest reports and hands each to the
 * listeners (the placement step that promotes a UE).
 */
public final class HeavyHitterManager implements HeavyHitterService {

    /** Reports kept for {@link #recent()}. */
    public static final int HISTORY = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(HeavyHitterManager.class);

    /** Writes settings to every switch. */
    @FunctionalInterface
    public interface Writer {
        /**
         * Writes the settings to every switch.
         *
         * @param settings settings
         * @throws org.flowbuf.api.FlowBufException UNAVAILABLE naming the switches that
         *                                          did not take them
         */
        void writeAll(HeavyHitterSettings settings);
    }

    private final Writer writer;
    private final Deque<HeavyHitter> history = new ArrayDeque<>();
    private final List<Consumer<HeavyHitter>> listeners = new CopyOnWriteArrayList<>();
    private volatile HeavyHitterSettings settings;

    /**
     * A manager whose switches run with `initial` (written by whoever
     * prepares a switch).
     *
     * @param writer  writer of new settings
     * @param initial the settings the switches start with
     */
    public HeavyHitterManager(Writer writer, HeavyHitterSettings initial) {
        this.writer = Objects.requireNonNull(writer);
        this.settings = Objects.requireNonNull(initial);
    }

    @Override
    public HeavyHitterSettings settings() {
        return settings;
    }

    @Override
    public synchronized void configure(HeavyHitterSettings next) {
        Objects.requireNonNull(next);
        // Kept first: a switch that failed takes them when it comes back.
        HeavyHitterSettings before = settings;
        settings = next;
        writer.writeAll(next);
        LOG.info("heavy-hitter detection {} (was {})", next, before);
    }

    /**
     * A switch's report: kept, logged, handed to the listeners.
     *
     * @param report the report
     */
    public void reported(HeavyHitter report) {
        synchronized (history) {
            if (history.size() == HISTORY) {
                history.removeFirst();
            }
            history.addLast(report);
        }
        LOG.info("heavy hitter: {}", report);
        for (Consumer<HeavyHitter> listener : listeners) {
            try {
                listener.accept(report);
            } catch (RuntimeException e) {
                LOG.warn("heavy-hitter listener failed on {}: {}", report, e.toString());
            }
        }
    }

    @Override
    public List<HeavyHitter> recent() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    @Override
    public void addListener(Consumer<HeavyHitter> listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    @Override
    public void removeListener(Consumer<HeavyHitter> listener) {
        listeners.remove(listener);
    }
}
