/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * LMM's state in ONOS's distributed primitives: every instance of a cluster
 * sees the same handoffs and residents, and ids come from a cluster-wide
 * counter, so an instance that takes over after another died finds where
 * each UE's downlink lives and which handoffs were under way.
 */
final class DistributedLmmStore implements LmmStore {

    /** Names of the primitives in the cluster. */
    static final String HANDOFFS = "flowbuf-lmm-handoffs";
    static final String RESIDENTS = "flowbuf-lmm-residents";
    static final String IDS = "flowbuf-lmm-ids";
    static final String RUNNERS = "flowbuf-lmm-runners";
    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(LmmHandoff.class, LmmHandoff.State.class, HandoffPlan.class,
                              HandoffPlan.Buffering.class, FlowFilter.class, BufferId.class,
                              IntentId.class, Resident.class)
                    .build("flowbuf-lmm"));

    private final ConsistentMap<Long, LmmHandoff> handoffs;
    private final ConsistentMap<FlowFilter, Resident> residents;
    private final ConsistentMap<Long, String> runners;
    private final AtomicCounter ids;

    /**
     * Creates the store on ONOS's storage service.
     *
     * @param storage storage service
     */
    DistributedLmmStore(StorageService storage) {
        this.handoffs = storage.<Long, LmmHandoff>consistentMapBuilder().withName(HANDOFFS)
                .withSerializer(SERIALIZER).build();
        this.residents = storage.<FlowFilter, Resident>consistentMapBuilder()
                .withName(RESIDENTS).withSerializer(SERIALIZER).build();
        this.runners = storage.<Long, String>consistentMapBuilder().withName(RUNNERS)
                .withSerializer(SERIALIZER).build();
        this.ids = storage.getAtomicCounter(IDS);
    }

    @Override
    public long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public void put(LmmHandoff handoff) {
        handoffs.put(handoff.id(), handoff);
    }

    @Override
    public Optional<LmmHandoff> get(long id) {
        return Optional.ofNullable(Versioned.valueOrNull(handoffs.get(id)));
    }

    @Override
    public void putRunner(long id, String node) {
        runners.put(id, node);
    }

    @Override
    public Optional<String> runner(long id) {
        return Optional.ofNullable(Versioned.valueOrNull(runners.get(id)));
    }

    @Override
    public void remove(long id) {
        handoffs.remove(id);
        runners.remove(id);
    }

    @Override
    public Collection<LmmHandoff> handoffs() {
        return List.copyOf(handoffs.asJavaMap().values());
    }

    @Override
    public Optional<Resident> resident(FlowFilter downlink) {
        return Optional.ofNullable(Versioned.valueOrNull(residents.get(downlink)));
    }

    @Override
    public void putResident(FlowFilter downlink, Resident resident) {
        residents.put(downlink, resident);
    }

    @Override
    public void removeResident(FlowFilter downlink) {
        residents.remove(downlink);
    }
}
