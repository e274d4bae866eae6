/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.IntentId;
import org.onosproject.net.DeviceId;

import java.util.HashMap;
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
    private final Map<IntentId, DeviceRule> rules = new ConcurrentHashMap<>();
    private final Map<DeviceRule, IntentId> owners = new ConcurrentHashMap<>();

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
    public void remove(IntentId id) {
        intents.remove(id);
    }

    @Override
    public Map<IntentId, FlowBufIntent> intents() {
        return Map.copyOf(intents);
    }

    @Override
    public void putRule(IntentId id, DeviceId deviceId, SteeringRule rule) {
        DeviceRule key = new DeviceRule(deviceId, rule);
        rules.put(id, key);
        owners.put(key, id);
    }

    @Override
    public void removeRule(IntentId id) {
        DeviceRule key = rules.remove(id);
        if (key != null) {
            owners.remove(key, id);
        }
    }

    @Override
    public Map<IntentId, SteeringRule> rules() {
        Map<IntentId, SteeringRule> copy = new HashMap<>();
        rules.forEach((id, key) -> copy.put(id, key.rule()));
        return copy;
    }

    @Override
    public Optional<IntentId> ruleOwner(DeviceId deviceId, SteeringRule rule) {
        return Optional.ofNullable(owners.get(new DeviceRule(deviceId, rule)));
    }
}
