/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.VportId;
import org.flowbuf.app.intent.IntentManager;
import org.flowbuf.app.intent.StatefulSwitch;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.StatefulAgent;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.app.task.BufferManager;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * The Buffer Service and the intent manager on one device, against a
 * stateful agent and switch that refuse what real ones refuse and take up
 * to half a millisecond per call: what the applications' concurrency tests
 * run on, and the consistency they check afterwards.
 */
public final class ServiceStack {

    /** The device. */
    public static final DeviceId S1 = DeviceId.deviceId("device:s1");

    /** The agent. */
    public final StatefulAgent agent = new StatefulAgent(0, 500);
    /** The Buffer Service's store. */
    public final InMemoryBufferStore store = new InMemoryBufferStore();
    /** The switch's steering table. */
    public final StatefulSwitch table = new StatefulSwitch(500, 0);
    /** The task-level Buffer Service. */
    public final BufferManager buffers;
    /** The intent level. */
    public final IntentManager intents;

    /**
     * The stack with a device of the given number of vports.
     *
     * @param vports how many vports the device has
     */
    public ServiceStack(int vports) {
        List<VportSlot> slots = new ArrayList<>();
        for (int i = 0; i < vports; i++) {
            slots.add(new VportSlot(VportId.vportId("vp" + i), 100 + i, null));
        }
        OneDeviceAgents agents = new OneDeviceAgents(S1, agent, slots);
        buffers = new BufferManager(agents, store);
        intents = new IntentManager(buffers, agents, table);
    }

    /**
     * Checks that the switch holds exactly the rules of the installed
     * intents and the store says what the agent holds.
     */
    public void assertConsistent() {
        assertEquals("switch vs installed intents", new HashSet<>(intents.installedRules(S1)),
                     table.rules());
        Map<BufferId, String> stored = new HashMap<>();
        store.buffers(S1).forEach(b -> stored.put(b.id(), b.vport() + " " + b.mode()));
        assertEquals("store vs agent", agent.holdings(), stored);
    }

    /**
     * How many intents are installed.
     *
     * @return their number
     */
    public long installedIntents() {
        return intents.getIntents().stream()
                .filter(i -> i.state() == FlowBufIntent.State.INSTALLED).count();
    }
}
