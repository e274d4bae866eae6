/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Records in a ConsistentMap named NAME, ids from the cluster-wide counter
 * NAME-ids: every instance of the cluster sees the same records and none
 * gives out an id another gave.
 *
 * @param <V> the record
 */
public final class DistributedIdRecords<V> implements IdRecords<V> {

    private final ConsistentMap<Long, V> records;
    private final AtomicCounter ids;

    /**
     * Opens (or creates) the records.
     *
     * @param storage    ONOS's storage service
     * @param name       the map's name in the cluster
     * @param serializer the records' serializer (Long keys included)
     */
    public DistributedIdRecords(StorageService storage, String name, Serializer serializer) {
        this.records = storage.<Long, V>consistentMapBuilder().withName(name)
                .withSerializer(serializer).build();
        this.ids = storage.getAtomicCounter(name + "-ids");
    }

    @Override
    public long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public void put(long id, V record) {
        records.put(id, record);
    }

    @Override
    public Optional<V> get(long id) {
        return Optional.ofNullable(Versioned.valueOrNull(records.get(id)));
    }

    @Override
    public void remove(long id) {
        records.remove(id);
    }

    @Override
    public Collection<V> values() {
        return List.copyOf(records.asJavaMap().values());
    }
}
