/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.Status;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.Operation;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The client against an in-process agent: wire form, batching, retries, errors. */
public class DefaultBufferAgentClientTest {

    private static final BufferId BUF = BufferId.bufferId("b1");
    private static final VportSlot SLOT = new VportSlot(VportId.vportId("vp100"), 100, "ag1-vp100");

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private FakeBufferAgent agent;
    private DefaultBufferAgentClient client;

    @Before
    public void setUp() throws Exception {
        agent = new FakeBufferAgent();
        client = InProcessAgent.start(grpc, agent, "test-agent");
    }

    @Test
    public void oneOperationIsItsOwnCallWithTheAppId() {
        client.apply(List.of(AgentOperation.setVportMode(SLOT.id(), VportMode.RX)));
        assertEquals(List.of("SetVportMode org.flowbuf.test"), agent.calls);
        assertEquals(org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_RX,
                     agent.applied.get(0).getSetVportMode().getMode());
    }

    @Test
    public void severalOperationsGoInOneBatchInOrder() {
        BufferSpec spec = BufferSpec.builder().capacityPackets(10).build();
        client.apply(List.of(AgentOperation.createBuffer(BUF, spec),
                             AgentOperation.createVport(SLOT, VportMode.RX_TX),
                             AgentOperation.bind(BUF, SLOT.id())));
        assertEquals(List.of("Batch org.flowbuf.test"), agent.calls);
        assertEquals(List.of(Operation.OpCase.CREATE_BUFFER, Operation.OpCase.CREATE_VPORT,
                             Operation.OpCase.BIND),
                     List.of(agent.applied.get(0).getOpCase(), agent.applied.get(1).getOpCase(),
                             agent.applied.get(2).getOpCase()));
        assertEquals("ag1-vp100", agent.applied.get(1).getCreateVport().getConfig()
                .getLinuxInterface().getInterface());
        assertEquals(100, agent.applied.get(1).getCreateVport().getConfig().getSwitchPort());
    }

    @Test
    public void inProcessSlotsUseTheInProcessBackend() {
        VportSlot inproc = new VportSlot(VportId.vportId("vp7"), 7, null);
        client.apply(List.of(AgentOperation.createVport(inproc, VportMode.NONE)));
        assertEquals(7, agent.applied.get(0).getCreateVport().getConfig().getInProcess().getPort());
    }

    @Test
    public void idempotentCallsAreRetriedWhenTheAgentIsUnavailable() {
        agent.failNext(Status.UNAVAILABLE);
        agent.failNext(Status.UNAVAILABLE);
        client.apply(List.of(AgentOperation.setVportMode(SLOT.id(), VportMode.TX)));
        assertEquals(3, agent.calls.size());
        assertEquals(1, agent.applied.size());
    }

    @Test
    public void nonIdempotentCallsAreNotRetried() {
        agent.failNext(Status.UNAVAILABLE);
        assertReason(() -> client.apply(List.of(AgentOperation.bind(BUF, SLOT.id()))),
                     FlowBufException.Reason.UNAVAILABLE);
        assertEquals(1, agent.calls.size());
        assertTrue(agent.applied.isEmpty());
    }

    @Test
    public void agentStatusesBecomeReasonsWithTheAgentsMessage() {
        Object[][] cases = {
            {Status.INVALID_ARGUMENT, FlowBufException.Reason.INVALID},
            {Status.NOT_FOUND, FlowBufException.Reason.NOT_FOUND},
            {Status.ALREADY_EXISTS, FlowBufException.Reason.CONFLICT},
            {Status.FAILED_PRECONDITION, FlowBufException.Reason.CONFLICT},
            {Status.PERMISSION_DENIED, FlowBufException.Reason.FORBIDDEN},
            {Status.RESOURCE_EXHAUSTED, FlowBufException.Reason.EXHAUSTED},
            {Status.UNIMPLEMENTED, FlowBufException.Reason.INVALID},
        };
        for (Object[] c : cases) {
            agent.failNext(((Status) c[0]).withDescription("because"));
            FlowBufException e = assertReason(() -> client.occupancyPackets(BUF),
                                              (FlowBufException.Reason) c[1]);
            assertEquals("agent test-agent: because", e.getMessage());
        }
    }

    @Test
    public void occupancyComesFromQueryBuffer() {
        agent.setOccupancy(42);
        assertEquals(42, client.occupancyPackets(BUF));
    }

    private static FlowBufException assertReason(Runnable call, FlowBufException.Reason reason) {
        try {
            call.run();
        } catch (FlowBufException e) {
            assertEquals(reason, e.reason());
            return e;
        }
        fail("expected " + reason);
        return null;
    }
}
