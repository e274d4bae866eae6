/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** Congestion avoidance's flows in this process (the embedded host, one controller). */
public final class InMemoryCcFlowStore implements CcFlowStore {

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Integer, Long> indexes = new ConcurrentHashMap<>();
    private final Map<Long, CcRecord> records = new ConcurrentSkipListMap<>();

    @Override
    public long nextId() {
        return nextId.getAndIncrement();
    }

    @Override
    public boolean claimIndex(int index, long flow) {
        return indexes.putIfAbsent(index, flow) == null;
    }

    @Override
    public void releaseIndex(int index) {
        indexes.remove(index);
    }

    @Override
    public void put(CcRecord record) {
        records.put(record.id(), record);
    }

    @Override
    public Optional<CcRecord> get(long id) {
        return Optional.ofNullable(records.get(id));
    }

    @Override
    public void remove(long id) {
        records.remove(id);
    }

    @Override
    public Collection<CcRecord> values() {
        return List.copyOf(records.values());
    }
}
