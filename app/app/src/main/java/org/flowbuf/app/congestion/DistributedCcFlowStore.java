/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Congestion avoidance's flows in ONOS's distributed primitives: every
 * instance of a cluster sees the same flows (REST answers on any of them),
 * a flow index is claimed once cluster-wide (putIfAbsent on a ConsistentMap)
 * and ids come from a cluster-wide counter. ONOS keeps them across its
 * restart as it keeps the buffers (Atomix's partitions in data/).
 */
public final class DistributedCcFlowStore implements CcFlowStore {

    /** Names of the primitives in the cluster. */
    static final String FLOWS = "flowbuf-cc-flows";
    static final String INDEXES = "flowbuf-cc-indexes";
    static final String IDS = "flowbuf-cc-ids";

    private final ConsistentMap<Long, CcRecord> records;
    private final ConsistentMap<Integer, Long> indexes;
    private final AtomicCounter ids;

    /**
     * Opens (or creates) the store.
     *
     * @param storage ONOS's storage service
     */
    public DistributedCcFlowStore(StorageService storage) {
        this.records = storage.<Long, CcRecord>consistentMapBuilder().withName(FLOWS)
                .withSerializer(CcFlowCodec.SERIALIZER).build();
        this.indexes = storage.<Integer, Long>consistentMapBuilder().withName(INDEXES)
                .withSerializer(CcFlowCodec.SERIALIZER).build();
        this.ids = storage.getAtomicCounter(IDS);
    }

    @Override
    public long nextId() {
        return ids.incrementAndGet();
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
        return Optional.ofNullable(Versioned.valueOrNull(records.get(id)));
    }

    @Override
    public void remove(long id) {
        records.remove(id);
    }

    @Override
    public Collection<CcRecord> values() {
        // By id, as the embedded host lists them.
        return records.asJavaMap().values().stream()
                .sorted(Comparator.comparingLong(CcRecord::id))
                .collect(Collectors.toUnmodifiableList());
    }
}
