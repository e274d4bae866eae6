/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.VportId;
import org.flowbuf.app.Race;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.StatefulAgent;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The Buffer Service under hundreds of threads on a few buffers: every reply
 * is one the request could get alone, no vport is given twice, and the
 * store says what the agent holds afterwards. The agent is stateful and
 * refuses what a real one refuses, with calls that take up to a millisecond,
 * so unordered changes of one buffer would show.
 */
public class BufferManagerConcurrencyTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final String APP = "app";
    private static final int THREADS = 200;

    private final StatefulAgent agent = new StatefulAgent(0, 1000);
    private final InMemoryBufferStore store = new InMemoryBufferStore();

    private BufferManager service(int vports) {
        return new BufferManager(new OneDeviceAgents(S1, agent, slotsOf(vports)), store);
    }

    private static BufferId id(String name) {
        return BufferId.bufferId(name);
    }

    @Test
    public void concurrentCreatesNeverGiveAVportOrAnIdTwice() {
        BufferManager buffers = service(8);
        // 200 creates of 16 ids on 8 vports: each id races 12 others for
        // itself, and all race for the vports.
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> buffers.createBuffer(
                S1, id("b" + (i % 16)), APP, BufferSpec.defaults(), BufferState.BUFFERING));
        Set<VportId> given = new HashSet<>();
        Set<BufferId> created = new HashSet<>();
        for (Race.Reply r : replies) {
            if (r.ok()) {
                Buffer b = (Buffer) r.value;
                assertTrue("vport given twice: " + r, given.add(b.vport()));
                assertTrue("id created twice: " + r, created.add(b.id()));
            } else {
                expectRefusal(r, "already exists on " + S1, "every vport of " + S1);
            }
        }
        assertEquals("each vport used once", 8, given.size());
        assertStoreIsAgent();
    }

    @Test
    public void movesOfOneBufferLeaveTheStoreAsTheAgent() {
        BufferManager buffers = service(4);
        for (int i = 0; i < 4; i++) {
            buffers.createBuffer(S1, id("m" + i), APP, BufferSpec.defaults(), BufferState.FREE);
        }
        BufferState[] targets = {BufferState.BUFFERING, BufferState.FORWARDING,
                BufferState.SERVING, BufferState.FREE};
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> buffers.moveBuffer(
                S1, id("m" + (i % 4)), APP, targets[ThreadLocalRandom.current().nextInt(4)]));
        replies.forEach(r -> assertTrue("refused: " + r, r.ok()));
        assertStoreIsAgent();
    }

    @Test
    public void removalsRacingMovesAndCreatesEndConsistent() {
        BufferManager buffers = service(6);
        for (int i = 0; i < 3; i++) {
            buffers.createBuffer(S1, id("r" + i), APP, BufferSpec.defaults(),
                                 BufferState.BUFFERING);
        }
        // Per buffer id: removals, moves and re-creates at once.
        List<Race.Reply> replies = Race.run(THREADS, i -> {
            BufferId target = id("r" + (i % 3));
            switch (i % 4) {
                case 0:
                    return () -> {
                        buffers.removeBuffer(S1, target, APP, true);
                        return "removed";
                    };
                case 1:
                    return () -> buffers.createBuffer(S1, target, APP, BufferSpec.defaults(),
                                                      BufferState.FORWARDING);
                default:
                    return () -> buffers.moveBuffer(S1, target, APP,
                                                     i % 4 == 2 ? BufferState.FORWARDING
                                                             : BufferState.BUFFERING);
            }
        });
        for (Race.Reply r : replies) {
            if (!r.ok()) {
                expectRefusal(r, "no buffer", "already exists on " + S1);
            }
        }
        assertStoreIsAgent();
    }

    @Test
    public void changesOfDifferentBuffersOverlapTheirAgentCalls() {
        StatefulAgent slow = new StatefulAgent(50_000, 50_000);
        BufferManager buffers = new BufferManager(new OneDeviceAgents(S1, slow, slotsOf(16)),
                                                  store);
        List<Race.Reply> replies = Race.run(16, i -> () -> buffers.createBuffer(
                S1, id("p" + i), APP, BufferSpec.defaults(), BufferState.BUFFERING));
        replies.forEach(r -> assertTrue("refused: " + r, r.ok()));
        // Serialized, one 50 ms call would end before the next began. (Counted,
        // not timed: on a loaded machine the wall time says little.)
        assertTrue("16 creates of different buffers never overlapped their agent calls",
                   slow.peakConcurrentCalls() >= 2);
    }

    private static List<VportSlot> slotsOf(int n) {
        List<VportSlot> slots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            slots.add(new VportSlot(VportId.vportId("vp" + i), 100 + i, null));
        }
        return slots;
    }

    /** The store holds what the agent holds, buffer by buffer, vport and mode. */
    private void assertStoreIsAgent() {
        Map<BufferId, String> stored = new HashMap<>();
        store.buffers(S1).forEach(b -> stored.put(b.id(), b.vport() + " " + b.mode()));
        assertEquals("store vs agent", agent.holdings(), stored);
    }

    private static void expectRefusal(Race.Reply r, String... expected) {
        for (String text : expected) {
            if (r.refusal.getMessage().contains(text)) {
                return;
            }
        }
        fail("unexpected refusal: " + r);
    }
}
