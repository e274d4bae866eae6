/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.TestStorageService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's test storage with its maps and counters shared by name, as the
 * instances of a cluster share them: two stores built on one ClusterStorage
 * stand for two instances of one cluster (ONOS's TestStorageService makes a
 * new map on every build).
 */
public final class ClusterStorage extends TestStorageService {

    private final Map<String, ConsistentMap<?, ?>> maps = new ConcurrentHashMap<>();
    private final Map<String, AtomicCounter> counters = new ConcurrentHashMap<>();

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
        return new TestConsistentMap.Builder<>() {
            @Override
            public ConsistentMap<K, V> build() {
                return (ConsistentMap<K, V>) maps.computeIfAbsent(name(), n -> super.build());
            }
        };
    }

    @Override
    public AtomicCounter getAtomicCounter(String name) {
        return counters.computeIfAbsent(name, super::getAtomicCounter);
    }
}
