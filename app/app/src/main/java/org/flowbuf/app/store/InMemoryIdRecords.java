/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records in this process (the embedded host, one controller).
 *
 * @param <V> the record
 */
public final class InMemoryIdRecords<V> implements IdRecords<V> {

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, V> records = new ConcurrentHashMap<>();

    @Override
    public long nextId() {
        return nextId.getAndIncrement();
    }

    @Override
    public void put(long id, V record) {
        records.put(id, record);
    }

    @Override
    public Optional<V> get(long id) {
        return Optional.ofNullable(records.get(id));
    }

    @Override
    public void remove(long id) {
        records.remove(id);
    }

    @Override
    public Collection<V> values() {
        return List.copyOf(records.values());
    }
}
