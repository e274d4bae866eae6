/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.app.intent.DeviceRule;
import org.flowbuf.app.intent.IntentStore;
import org.flowbuf.app.intent.SteeringRule;
import org.onlab.util.KryoNamespace;
import org.onosproject.net.DeviceId;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Intents in ONOS's distributed primitives: every instance of a cluster sees
 * the same intents and rules, and ids come from a cluster-wide counter.
 */
public final class DistributedIntentStore implements IntentStore {

    /** Names of the primitives in the cluster. */
    static final String INTENTS = "flowbuf-intents";
    static final String RULES = "flowbuf-intent-rules";
    static final String OWNERS = "flowbuf-rule-owners";
    static final String IDS = "flowbuf-intent-ids";
    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(FlowBufIntent.class, FlowBufIntent.Type.class,
                              FlowBufIntent.State.class, IntentId.class, BufferId.class,
                              FlowFilter.class, SteeringRule.class, DeviceRule.class)
                    .build("flowbuf-intents"));

    private final ConsistentMap<IntentId, FlowBufIntent> intents;
    private final ConsistentMap<IntentId, DeviceRule> rules;
    private final ConsistentMap<DeviceRule, IntentId> owners;
    private final AtomicCounter ids;

    /**
     * Creates the store on ONOS's storage service.
     *
     * @param storage storage service
     */
    public DistributedIntentStore(StorageService storage) {
        this.intents = storage.<IntentId, FlowBufIntent>consistentMapBuilder().withName(INTENTS)
                .withSerializer(SERIALIZER).build();
        this.rules = storage.<IntentId, DeviceRule>consistentMapBuilder().withName(RULES)
                .withSerializer(SERIALIZER).build();
        this.owners = storage.<DeviceRule, IntentId>consistentMapBuilder().withName(OWNERS)
                .withSerializer(SERIALIZER).build();
        this.ids = storage.getAtomicCounter(IDS);
    }

    @Override
    public IntentId nextId() {
        return IntentId.intentId(ids.incrementAndGet());
    }

    @Override
    public Optional<FlowBufIntent> put(FlowBufIntent intent) {
        return Optional.ofNullable(Versioned.valueOrNull(intents.put(intent.id(), intent)));
    }

    @Override
    public Optional<FlowBufIntent> get(IntentId id) {
        return Optional.ofNullable(Versioned.valueOrNull(intents.get(id)));
    }

    @Override
    public void remove(IntentId id) {
        intents.remove(id);
    }

    @Override
    public Map<IntentId, FlowBufIntent> intents() {
        return Map.copyOf(intents.asJavaMap());
    }

    @Override
    public void putRule(IntentId id, DeviceId deviceId, SteeringRule rule) {
        DeviceRule key = new DeviceRule(deviceId, rule);
        rules.put(id, key);
        owners.put(key, id);
    }

    @Override
    public void removeRule(IntentId id) {
        DeviceRule key = Versioned.valueOrNull(rules.remove(id));
        if (key != null) {
            owners.remove(key, id);
        }
    }

    @Override
    public Map<IntentId, SteeringRule> rules() {
        Map<IntentId, SteeringRule> copy = new HashMap<>();
        rules.asJavaMap().forEach((id, key) -> copy.put(id, key.rule()));
        return copy;
    }

    @Override
    public Optional<SteeringRule> rule(IntentId id) {
        return Optional.ofNullable(Versioned.valueOrNull(rules.get(id))).map(DeviceRule::rule);
    }

    @Override
    public Optional<IntentId> ruleOwner(DeviceId deviceId, SteeringRule rule) {
        return Optional.ofNullable(Versioned.valueOrNull(owners.get(new DeviceRule(deviceId, rule))));
    }
}
