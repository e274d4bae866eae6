/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onosproject.net.DeviceId;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Intents of one process (the embedded host, tests). Installed pauses are
 * indexed by device and filter (in-port ignored): each pause looks for the
 * buffer its flow is already paused into, and a scan of every installed
 * rule grows with the promoted UEs of a hybrid UPF (150 µs at 240).
 */
public final class InMemoryIntentStore implements IntentStore {

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<IntentId, FlowBufIntent> intents = new ConcurrentHashMap<>();
    private final Map<IntentId, DeviceRule> rules = new ConcurrentHashMap<>();
    private final Map<DeviceRule, IntentId> owners = new ConcurrentHashMap<>();
    /** Intents whose latest version is an installed pause; each set is immutable. */
    private final Map<PauseKey, Set<IntentId>> pauses = new ConcurrentHashMap<>();

    @Override
    public IntentId nextId() {
        return IntentId.intentId(nextId.getAndIncrement());
    }

    @Override
    public Optional<FlowBufIntent> put(FlowBufIntent intent) {
        FlowBufIntent previous = intents.put(intent.id(), intent);
        if (previous != null && IntentStore.isInstalledPause(previous)) {
            unindex(previous);
        }
        if (IntentStore.isInstalledPause(intent)) {
            pauses.compute(PauseKey.of(intent), (k, ids) -> {
                Set<IntentId> more = ids == null ? new HashSet<>() : new HashSet<>(ids);
                more.add(intent.id());
                return Set.copyOf(more);
            });
        }
        return Optional.ofNullable(previous);
    }

    @Override
    public Optional<FlowBufIntent> get(IntentId id) {
        return Optional.ofNullable(intents.get(id));
    }

    @Override
    public void remove(IntentId id) {
        FlowBufIntent removed = intents.remove(id);
        if (removed != null && IntentStore.isInstalledPause(removed)) {
            unindex(removed);
        }
    }

    private void unindex(FlowBufIntent intent) {
        pauses.computeIfPresent(PauseKey.of(intent), (k, ids) -> {
            Set<IntentId> fewer = new HashSet<>(ids);
            fewer.remove(intent.id());
            return fewer.isEmpty() ? null : Set.copyOf(fewer);
        });
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
    public Optional<SteeringRule> rule(IntentId id) {
        DeviceRule key = rules.get(id);
        return key == null ? Optional.empty() : Optional.of(key.rule());
    }

    @Override
    public Optional<IntentId> ruleOwner(DeviceId deviceId, SteeringRule rule) {
        return Optional.ofNullable(owners.get(new DeviceRule(deviceId, rule)));
    }

    @Override
    public List<FlowBufIntent> installedPauses(DeviceId deviceId, FlowFilter filter) {
        FlowFilter wanted = filter.withoutInPort();
        Set<IntentId> ids = pauses.getOrDefault(new PauseKey(deviceId, wanted), Set.of());
        // The index is checked against the intents and rules, as the scan
        // would: only an installed pause that holds a rule counts.
        return ids.stream().filter(rules::containsKey)
                .map(intents::get).filter(Objects::nonNull)
                .filter(i -> IntentStore.isInstalledPause(i, deviceId, wanted))
                .collect(Collectors.toList());
    }

    /** Device and filter without in-port of a pause. */
    private static final class PauseKey {
        private final DeviceId deviceId;
        private final FlowFilter filter;

        PauseKey(DeviceId deviceId, FlowFilter filter) {
            this.deviceId = deviceId;
            this.filter = filter;
        }

        static PauseKey of(FlowBufIntent intent) {
            return new PauseKey(intent.deviceId(), intent.filter().withoutInPort());
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof PauseKey)) {
                return false;
            }
            PauseKey k = (PauseKey) o;
            return deviceId.equals(k.deviceId) && filter.equals(k.filter);
        }

        @Override
        public int hashCode() {
            return 31 * deviceId.hashCode() + filter.hashCode();
        }
    }
}
