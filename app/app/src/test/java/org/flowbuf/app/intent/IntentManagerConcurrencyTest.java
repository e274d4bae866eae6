/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.VportId;
import org.flowbuf.app.Race;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.StatefulAgent;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.app.task.BufferManager;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * pause / resume / withdraw from hundreds of threads on a few flows and
 * buffers, against a stateful agent and switch that refuse what real ones
 * refuse (an entry written twice, a delete of what is not there) and take
 * up to half a millisecond per call: every reply is one the request could
 * get alone, and afterwards the switch holds exactly the rules of the
 * installed intents, each flow has at most one installed pause, and the
 * store says what the agent holds.
 */
public class IntentManagerConcurrencyTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final String APP = "app";
    private static final PortNumber IN = PortNumber.portNumber(1);
    private static final PortNumber OUT = PortNumber.portNumber(2);
    private static final int THREADS = 200;
    private static final int POOLS = 3;

    private final StatefulAgent agent = new StatefulAgent(0, 500);
    private final InMemoryBufferStore store = new InMemoryBufferStore();
    private BufferManager buffers;
    private StatefulSwitch table;
    private IntentManager intents;

    private void start(double refuseShare) {
        List<VportSlot> slots = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            slots.add(new VportSlot(VportId.vportId("vp" + i), 100 + i, null));
        }
        OneDeviceAgents agents = new OneDeviceAgents(S1, agent, slots);
        buffers = new BufferManager(agents, store);
        table = new StatefulSwitch(500, refuseShare);
        intents = new IntentManager(buffers, agents, table);
        for (int i = 0; i < POOLS; i++) {
            buffers.createBuffer(S1, pool(i), APP, BufferSpec.defaults(), BufferState.BUFFERING);
        }
    }

    private static BufferId pool(int i) {
        return BufferId.bufferId("pool-" + i);
    }

    private static FlowFilter flow(int i) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17)
                .l4DstPort(9000 + i).build();
    }

    @Test
    public void pausesOfOneFlowIntoDifferentBuffersAreRefusedNotWritten() {
        start(0);
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> intents.pause(
                S1, IN, flow(i % 4), Optional.of(pool(ThreadLocalRandom.current().nextInt(POOLS))),
                APP));
        for (Race.Reply r : replies) {
            if (!r.ok()) {
                expectRefusal(r, "already steers into buffer");
            }
        }
        for (int f = 0; f < 4; f++) {
            int flow = f;
            long paused = intents.getIntents().stream()
                    .filter(i -> i.state() == FlowBufIntent.State.INSTALLED
                            && i.filter().withoutInPort().equals(flow(flow)))
                    .count();
            assertEquals("installed pauses of flow " + f, 1, paused);
        }
        assertSwitchIsIntents();
    }

    @Test
    public void pauseResumeWithdrawChurnLeavesSwitchAndStoreConsistent() {
        start(0.05);
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> cycle(flow(i % 8), pool(i % 8 % POOLS)));
        for (Race.Reply r : replies) {
            if (!r.ok()) {
                // A write the switch refused; an intent another thread's
                // identical intent took over (withdrawn with it).
                expectRefusal(r, StatefulSwitch.REFUSED, "not INSTALLED");
            }
        }
        assertSwitchIsIntents();
    }

    // A flow paused, resumed, and both intents withdrawn.
    private Object cycle(FlowFilter flow, BufferId buffer) {
        FlowBufIntent paused = intents.pause(S1, IN, flow, Optional.of(buffer), APP);
        FlowBufIntent resumed = intents.resume(S1, OUT, flow, Optional.of(buffer), APP);
        intents.withdraw(paused.id(), APP);
        intents.withdraw(resumed.id(), APP);
        return "done";
    }

    /** The switch holds the rules of the installed intents; the store what the agent holds. */
    private void assertSwitchIsIntents() {
        assertEquals("switch vs installed intents", new HashSet<>(intents.installedRules(S1)),
                     table.rules());
        Map<Object, Integer> pausesPerFlow = new HashMap<>();
        intents.getIntents().stream()
                .filter(i -> i.state() == FlowBufIntent.State.INSTALLED
                        && i.type() == FlowBufIntent.Type.PAUSE)
                .forEach(i -> pausesPerFlow.merge(i.filter().withoutInPort(), 1, Integer::sum));
        pausesPerFlow.forEach((f, n) -> assertEquals("installed pauses of " + f, 1, (int) n));
        Map<BufferId, String> stored = new HashMap<>();
        store.buffers(S1).forEach(b -> stored.put(b.id(), b.vport() + " " + b.mode()));
        assertEquals("store vs agent", agent.holdings(), stored);
    }

    private static void expectRefusal(Race.Reply r, String... expected) {
        FlowBufException e = r.refusal;
        for (String text : expected) {
            if (e.getMessage().contains(text)) {
                return;
            }
        }
        fail("unexpected refusal: " + r);
    }
}
