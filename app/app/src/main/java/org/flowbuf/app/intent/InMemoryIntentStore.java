/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.IntentId;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Intents of one process (the embedded host, tests).
 */
public final class InMemoryIntentStore implements IntentStore {

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<IntentId, FlowBufIntent> intents = new ConcurrentHashMap<>();
    private final Map<IntentId, SteeringRule> rules = new ConcurrentHashMap<>();

    @Override
    public IntentId nextId() {
        return IntentId.intentId(nextId.getAndIncrement());
    }

    @Override
    public Optional<FlowBufIntent> put(FlowBufIntent intent) {
        return Optional.ofNullable(intents.put(intent.id(), intent));
    }

    @Override
    public Optional<FlowBufIntent> get(IntentId id) {
        return Optional.ofNullable(intents.get(id));
    }

    @Override
    public Map<IntentId, FlowBufIntent> intents() {
        return Map.copyOf(intents);
    }

    @Override
    public void putRule(IntentId id, SteeringRule rule) {
        rules.put(id, rule);
    }

    @Override
    public void removeRule(IntentId id) {
        rules.remove(id);
    }

    @Override
    public Map<IntentId, SteeringRule> rules() {
        return Map.copyOf(rules);
    }
}
