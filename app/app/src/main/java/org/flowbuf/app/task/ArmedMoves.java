/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferState;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The moves armed on agents' triggers ({@code BufferService#armMove}), kept
 * so that an explicit move of the same buffer disarms them first, and a
 * disarm learns where a fired move left its buffer. Concurrent maps: the
 * BufferManager changes an entry in the turns of its trigger and buffer,
 * and reads them from any thread; local to the instance that armed them.
 */
final class ArmedMoves {

    private final Map<DeviceId, Map<BufferId, Armed>> byTrigger = new ConcurrentHashMap<>();

    void put(DeviceId deviceId, BufferId trigger, Armed move) {
        byTrigger.computeIfAbsent(deviceId, d -> new ConcurrentHashMap<>()).put(trigger, move);
    }

    Optional<Armed> remove(DeviceId deviceId, BufferId trigger) {
        Map<BufferId, Armed> armed = byTrigger.get(deviceId);
        return armed == null ? Optional.empty() : Optional.ofNullable(armed.remove(trigger));
    }

    // The move a trigger is armed with.
    Optional<Armed> get(DeviceId deviceId, BufferId trigger) {
        return Optional.ofNullable(byTrigger.getOrDefault(deviceId, Map.of()).get(trigger));
    }

    // The triggers armed to move a buffer.
    List<BufferId> triggersMoving(DeviceId deviceId, BufferId buffer) {
        return byTrigger.getOrDefault(deviceId, Map.of()).entrySet().stream()
                .filter(e -> e.getValue().buffer.equals(buffer)).map(Map.Entry::getKey)
                .collect(Collectors.toList());
    }

    /** One armed move: the buffer and the state it goes to when the trigger fires. */
    static final class Armed {
        final BufferId buffer;
        final BufferState state;

        Armed(BufferId buffer, BufferState state) {
            this.buffer = buffer;
            this.state = state;
        }
    }
}
