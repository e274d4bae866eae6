/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import io.grpc.Status;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.flowbuf.app.southbound.InProcessAgent;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.proto.buffer.v1.BufferConfig;
import org.flowbuf.proto.buffer.v1.Operation;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;

/**
 * Buffers made ahead: a take makes no agent call and is replaced, the pool
 * never holds more than the device's number, never blocks a create, and a
 * controller that lost its store hands none of the adopted ones out.
 */
public class ReadyBuffersTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final BufferId AUTO = BufferId.bufferId("auto-1");
    private static final BufferSpec DEFAULT = BufferSpec.defaults();

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private final AtomicInteger wanted = new AtomicInteger(1);
    private final List<String> events = new ArrayList<>();
    private FakeBufferAgent agent;
    private AgentDirectory agents;
    private BufferManager manager;

    @Before
    public void setUp() throws Exception {
        agent = new FakeBufferAgent();
        BufferAgentClient client = InProcessAgent.start(grpc, agent, "s1");
        agents = new OneDeviceAgents(S1, client, OneDeviceAgents.twoVports(), wanted::get);
        manager = managerOn(new InMemoryBufferStore());
    }

    // Top-ups run on the caller's thread here, so each test sees them done.
    private BufferManager managerOn(InMemoryBufferStore store) {
        BufferManager m = new BufferManager(agents, store, Runnable::run);
        m.setEventSink(e -> events.add(e.type() + " " + e.subject().id() + " "
                                               + e.subject().owner()));
        return m;
    }

    private List<String> owners() {
        return manager.getBuffers(S1).stream().map(b -> b.id() + ":" + b.owner()).sorted()
                .collect(Collectors.toList());
    }

    @Test
    public void reconcilingADeviceMakesItsReadyBuffers() {
        manager.reconcile(S1);
        assertEquals(List.of("ready-1:" + ReadyBuffers.OWNER), owners());
        assertEquals(BufferState.BUFFERING, manager.getBuffers(S1).iterator().next().state());
        manager.reconcile(S1);
        assertEquals("never more than the device's number", 1, manager.getBuffers(S1).size());
    }

    @Test
    public void aTakeMakesNoAgentCallAndTheTopUpMakesTheNextOne() {
        manager.reconcile(S1);
        agent.calls.clear();
        events.clear();
        Buffer taken = manager.allocateBuffer(S1, AUTO, "app", DEFAULT);
        assertEquals(BufferId.bufferId("ready-1"), taken.id());
        assertEquals("app", taken.owner());
        assertEquals(BufferState.BUFFERING, taken.state());
        // The only agent call is the top-up's batch, after the take.
        assertEquals(List.of("Batch org.flowbuf.test"), agent.calls);
        assertEquals(List.of("BUFFER_ASSIGNED ready-1 app",
                             "BUFFER_ADDED ready-2 " + ReadyBuffers.OWNER), events);
        assertEquals(List.of("ready-1:app", "ready-2:" + ReadyBuffers.OWNER), owners());
        assertReason(() -> manager.moveBuffer(S1, taken.id(), "other", BufferState.FORWARDING),
                     FlowBufException.Reason.FORBIDDEN);
    }

    @Test
    public void withNoneReadyOrAnotherSpecTheBufferIsCreatedUnderTheGivenId() {
        wanted.set(0);
        manager.reconcile(S1);
        assertEquals(AUTO, manager.allocateBuffer(S1, AUTO, "app", DEFAULT).id());
        wanted.set(1);
        manager.reconcile(S1);
        BufferSpec small = BufferSpec.builder().capacityPackets(10).build();
        BufferId sized = BufferId.bufferId("sized");
        assertEquals("a ready buffer is never handed out with another spec", sized,
                     manager.allocateBuffer(S1, sized, "app", small).id());
        assertEquals(List.of("auto-1:app", "sized:app"), owners());
    }

    @Test
    public void anExplicitCreateTakesTheVportOfAReadyBufferWhenNoneIsFree() {
        wanted.set(2);
        manager.reconcile(S1);
        assertEquals(2, manager.getBuffers(S1).size());
        Buffer explicit = manager.createBuffer(S1, BufferId.bufferId("b1"), "app", DEFAULT,
                                               BufferState.FREE);
        assertEquals(List.of("b1:app", "ready-2:" + ReadyBuffers.OWNER), owners());
        assertEquals(VportId.vportId("vp100"), explicit.vport());
        // Its removal frees the vport, and the pool is topped up again.
        manager.removeBuffer(S1, explicit.id(), "app", true);
        assertEquals(List.of("ready-2:" + ReadyBuffers.OWNER, "ready-3:" + ReadyBuffers.OWNER),
                     owners());
        manager.allocateBuffer(S1, AUTO, "a", DEFAULT);
        manager.allocateBuffer(S1, BufferId.bufferId("auto-2"), "b", DEFAULT);
        assertReason(() -> manager.allocateBuffer(S1, BufferId.bufferId("auto-3"), "c", DEFAULT),
                     FlowBufException.Reason.EXHAUSTED);
        assertEquals(List.of("ready-2:a", "ready-3:b"), owners());
    }

    @Test
    public void anAgentThatRefusesLeavesThePoolShortAndTheNextTopUpMakesIt() {
        agent.failNext("Batch", Status.UNAVAILABLE.withDescription("agent down"));
        manager.reconcile(S1);
        assertEquals(List.of(), owners());
        manager.reconcile(S1);
        assertEquals(List.of("ready-2:" + ReadyBuffers.OWNER), owners());
    }

    @Test
    public void aControllerThatLostItsStoreHandsOutNoneOfTheBuffersItAdopts() {
        manager.reconcile(S1);
        manager.allocateBuffer(S1, AUTO, "app", DEFAULT);
        BufferConfig made = agent.applied.stream().filter(Operation::hasCreateBuffer)
                .map(op -> op.getCreateBuffer().getConfig()).findFirst().orElseThrow();
        // ready-1 was taken by a pause whose flow has sent nothing yet: on the
        // agent it looks just like the untaken ready-2.
        agent.setListed(List.of(FakeBufferAgent.listedBuffer("ready-1", "vp100", made, 0),
                                FakeBufferAgent.listedBuffer("ready-2", "vp101", made, 0)),
                        List.of(FakeBufferAgent.listedRxVport("vp100"),
                                FakeBufferAgent.listedRxVport("vp101")));
        manager = managerOn(new InMemoryBufferStore());
        assertEquals(2, manager.reconcile(S1).size());
        assertEquals(List.of("ready-1:org.flowbuf.rest", "ready-2:org.flowbuf.rest"), owners());
        // Neither is handed out; with both vports held, nothing can be made either.
        assertReason(() -> manager.allocateBuffer(S1, AUTO, "app", DEFAULT),
                     FlowBufException.Reason.EXHAUSTED);
    }

}
