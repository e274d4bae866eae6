/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.IntentEvent;
import org.flowbuf.api.IntentEventService;
import org.flowbuf.api.IntentListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static org.onlab.util.Tools.groupedThreads;

/**
 * Delivers intent events to listeners. A component of its own because one
 * class cannot be a ListenerService for two event types; FlowBufManager
 * hands it the events its intent planner announces.
 */
@Component(immediate = true, service = {IntentEventService.class, IntentEventManager.class})
public final class IntentEventManager implements IntentEventService, Consumer<IntentEvent> {

    private ExecutorService executor;
    private EventFanout<IntentEvent, IntentListener> fanout;

    @Activate
    protected void activate() {
        executor = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "intent-events"));
        fanout = new EventFanout<>(executor);
    }

    @Deactivate
    protected void deactivate() {
        executor.shutdown();
    }

    @Override
    public void accept(IntentEvent event) {
        fanout.accept(event);
    }

    @Override
    public void addListener(IntentListener listener) {
        fanout.add(listener);
    }

    @Override
    public void removeListener(IntentListener listener) {
        fanout.remove(listener);
    }
}
