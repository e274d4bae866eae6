/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Which finished records (withdrawn intents, released uploads, removed
 * buffers' events...) to forget: the oldest beyond a bound. A controller
 * that pauses thousands of flows a second would otherwise keep every one it
 * ever handled, and answer every listing of them.
 *
 * @param <K> the record's key
 */
public final class Retention<K> {

    /** Finished records an application keeps by default. */
    public static final int DEFAULT_KEPT = 10_000;

    private final int kept;
    private final Deque<K> finished = new ArrayDeque<>();

    /**
     * A retention of the latest finished records.
     *
     * @param kept how many finished records to keep (at least 1)
     */
    public Retention(int kept) {
        if (kept < 1) {
            throw new IllegalArgumentException("keep at least one finished record, not " + kept);
        }
        this.kept = kept;
    }

    /**
     * Notes that a record has finished.
     *
     * @param key the record
     * @return the records to forget now, oldest first (empty while within the bound)
     */
    public synchronized List<K> finished(K key) {
        finished.addLast(key);
        List<K> forget = new ArrayList<>();
        while (finished.size() > kept) {
            forget.add(finished.removeFirst());
        }
        return forget;
    }
}
