/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app;

import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.IntentEvent;
import org.flowbuf.app.intent.InMemoryIntentStore;
import org.flowbuf.app.intent.IntentManager;
import org.flowbuf.app.intent.IntentStore;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.store.BufferStore;
import org.flowbuf.app.task.BufferManager;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.function.Consumer;

/**
 * The Buffer Service core assembled from its three seams: where the agents
 * are, where buffers are kept, and how steering rules reach the switch. ONOS
 * builds it with netcfg-driven agents, a distributed store and the
 * FlowRuleService; the embedded host with its own agents, the in-memory
 * store and a P4Runtime client. Nothing here depends on OSGi.
 */
public final class FlowBufCore {

    private final BufferManager buffers;
    private final IntentManager intents;

    /**
     * Assembles the core.
     *
     * @param agents       agents and vport slots of the devices
     * @param store        where buffers are kept
     * @param rules        writer of steering rules
     * @param bufferEvents receiver of buffer events
     * @param intentEvents receiver of intent events
     */
    public FlowBufCore(AgentDirectory agents, BufferStore store, SteeringRuleWriter rules,
                       Consumer<BufferEvent> bufferEvents, Consumer<IntentEvent> intentEvents) {
        this(agents, store, new InMemoryIntentStore(), rules, bufferEvents, intentEvents);
    }

    /**
     * Assembles the core with a given intent store.
     *
     * @param agents       agents and vport slots of the devices
     * @param store        where buffers are kept
     * @param intentStore  where intents are kept
     * @param rules        writer of steering rules
     * @param bufferEvents receiver of buffer events
     * @param intentEvents receiver of intent events
     */
    public FlowBufCore(AgentDirectory agents, BufferStore store, IntentStore intentStore,
                       SteeringRuleWriter rules, Consumer<BufferEvent> bufferEvents,
                       Consumer<IntentEvent> intentEvents) {
        this.buffers = new BufferManager(agents, store);
        this.buffers.setEventSink(bufferEvents);
        this.intents = new IntentManager(buffers, agents, rules, intentStore);
        this.intents.setEventSink(intentEvents);
    }

    /**
     * The task-level service.
     *
     * @return buffer service
     */
    public BufferService buffers() {
        return buffers;
    }

    /**
     * The steering rules of the installed intents on a device.
     *
     * @param deviceId device
     * @return rules the switch must hold
     */
    public List<SteeringRule> installedRules(DeviceId deviceId) {
        return intents.installedRules(deviceId);
    }

    /**
     * Takes over steering rules found on a device that no intent owns (after
     * a controller restart), as INSTALLED intents.
     *
     * @param deviceId device
     * @param found    rules read back from the device
     * @return the intents adopted
     */
    public List<FlowBufIntent> adoptRules(DeviceId deviceId, List<SteeringRule> found) {
        return intents.adopt(deviceId, found);
    }

    /**
     * The intent-level service.
     *
     * @return intent service
     */
    public FlowBufIntentService intents() {
        return intents;
    }
}
