/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.event.Event;
import org.onosproject.event.EventListener;
import org.onosproject.event.ListenerRegistry;

import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * Delivers events to listeners on one background thread, in the order they
 * happened, so a slow listener never holds the service's lock.
 *
 * @param <E> event type
 * @param <L> listener type
 */
final class EventFanout<E extends Event, L extends EventListener<E>> implements Consumer<E> {

    private final ListenerRegistry<E, L> listeners = new ListenerRegistry<>();
    private final ExecutorService executor;

    EventFanout(ExecutorService executor) {
        this.executor = executor;
    }

    @Override
    public void accept(E event) {
        executor.execute(() -> listeners.process(event));
    }

    void add(L listener) {
        listeners.addListener(listener);
    }

    void remove(L listener) {
        listeners.removeListener(listener);
    }
}
