/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.app.history.Retention;
import org.onosproject.net.DeviceId;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The latest events of each buffer, so an operator can see how a buffer got
 * where it is. Bounded per buffer; a removed buffer keeps its history until
 * a new buffer takes its id or, of the removed buffers, only the latest
 * {@value #REMOVED_KEPT} are remembered (every pause without a buffer
 * makes a buffer of a new id).
 */
final class EventHistory {

    /** Events kept per buffer. */
    static final int DEPTH = 64;
    /** Removed buffers whose events are kept. */
    static final int REMOVED_KEPT = 1000;

    private final Map<Key, Deque<BufferEvent>> events = new HashMap<>();
    private final Retention<Key> removed;

    EventHistory() {
        this(REMOVED_KEPT);
    }

    EventHistory(int removedKept) {
        this.removed = new Retention<>(removedKept);
    }

    synchronized void record(BufferEvent event) {
        Key key = new Key(event.subject().deviceId(), event.subject().id());
        if (event.type() == BufferEvent.Type.BUFFER_ADDED) {
            events.remove(key);
        }
        Deque<BufferEvent> log = events.computeIfAbsent(key, k -> new ArrayDeque<>());
        if (log.size() == DEPTH) {
            log.removeFirst();
        }
        log.addLast(event);
        if (event.type() == BufferEvent.Type.BUFFER_REMOVED) {
            removed.finished(key).forEach(this::forgetIfStillRemoved);
        }
    }

    // A buffer that has since been created again under the same id keeps
    // its new history.
    private void forgetIfStillRemoved(Key key) {
        Deque<BufferEvent> log = events.get(key);
        if (log != null && log.peekLast().type() == BufferEvent.Type.BUFFER_REMOVED) {
            events.remove(key);
        }
    }

    synchronized List<BufferEvent> of(DeviceId deviceId, BufferId id) {
        Deque<BufferEvent> log = events.get(new Key(deviceId, id));
        return log == null ? List.of() : List.copyOf(log);
    }

    private static final class Key {
        private final DeviceId deviceId;
        private final BufferId id;

        Key(DeviceId deviceId, BufferId id) {
            this.deviceId = deviceId;
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).deviceId.equals(deviceId)
                    && ((Key) o).id.equals(id);
        }

        @Override
        public int hashCode() {
            return Objects.hash(deviceId, id);
        }
    }
}
