/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.LmmHandoff;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** LMM's state in this process (the embedded host, one controller). */
final class InMemoryLmmStore implements LmmStore {

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, LmmHandoff> handoffs = new ConcurrentHashMap<>();
    private final Map<FlowFilter, Resident> residents = new ConcurrentHashMap<>();
    private final Map<Long, String> runners = new ConcurrentHashMap<>();

    @Override
    public long nextId() {
        return nextId.getAndIncrement();
    }

    @Override
    public void put(LmmHandoff handoff) {
        handoffs.put(handoff.id(), handoff);
    }

    @Override
    public Optional<LmmHandoff> get(long id) {
        return Optional.ofNullable(handoffs.get(id));
    }

    @Override
    public void putRunner(long id, String node) {
        runners.put(id, node);
    }

    @Override
    public Optional<String> runner(long id) {
        return Optional.ofNullable(runners.get(id));
    }

    @Override
    public void remove(long id) {
        handoffs.remove(id);
        runners.remove(id);
    }

    @Override
    public Collection<LmmHandoff> handoffs() {
        return List.copyOf(handoffs.values());
    }

    @Override
    public Optional<Resident> resident(FlowFilter downlink) {
        return Optional.ofNullable(residents.get(downlink));
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
