/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.Operation;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
    public void aSyncPointPurgeIsInclusiveAndAwaitsALateCopy() {
        agent.setOccupancy(4);
        assertEquals(Optional.of(3L), client.purgeToSyncPoint(BUF, PacketId.of(2, 0)));
        // Not held yet: what the buffer held is purged, the rest awaited.
        assertEquals(Optional.of(4L), client.purgeToSyncPoint(BUF, PacketId.of(9, 0)));
        // A plain purge of the same packet finds nothing and purges nothing.
        assertEquals(Optional.empty(), client.purgeUpTo(BUF, PacketId.of(9, 0), true));
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
    public void anAgentThatDoesNotAnswerIsNamedAsUnreachable() {
        for (Status status : List.of(Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED)) {
            for (int i = 0; i < DefaultBufferAgentClient.ATTEMPTS; i++) {
                agent.failNext(status.withDescription("io exception"));
            }
            FlowBufException e = assertReason(() -> client.occupancyPackets(BUF),
                                              FlowBufException.Reason.UNAVAILABLE);
            assertEquals("agent test-agent is unreachable: io exception", e.getMessage());
        }
    }

    @Test
    public void aReachabilityCheckAsksTheAgentOnlyWhenNotConnected() {
        client.checkReachable(); // a fresh channel is not connected yet
        assertEquals(1, agent.capabilityCalls.get());
        client.checkReachable(); // now it is: nothing to ask
        client.checkReachable();
        assertEquals(1, agent.capabilityCalls.get());
        assertTrue(agent.calls.isEmpty());
    }

    @Test
    public void aReachabilityCheckFailsWhenTheAgentIsGone() throws Exception {
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name).directExecutor().addService(agent)
                .build().start();
        DefaultBufferAgentClient gone = new DefaultBufferAgentClient(
                "gone-agent", InProcessAgent.APP_ID, grpc.register(
                        InProcessChannelBuilder.forName(name).directExecutor().build()),
                false, Duration.ofSeconds(1));
        gone.checkReachable();
        server.shutdownNow().awaitTermination();
        FlowBufException e = assertReason(gone::checkReachable,
                                          FlowBufException.Reason.UNAVAILABLE);
        assertTrue(e.getMessage(), e.getMessage().startsWith("agent gone-agent is unreachable"));
    }

    @Test
    public void reconnectNowReachesARestartedAgentWithoutWaitingOutTheBackoff()
            throws Exception {
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name).directExecutor().addService(agent)
                .build().start();
        DefaultBufferAgentClient restarting = new DefaultBufferAgentClient(
                "restarting-agent", InProcessAgent.APP_ID, grpc.register(
                        InProcessChannelBuilder.forName(name).directExecutor().build()),
                false, Duration.ofSeconds(1));
        agent.setOccupancy(7);
        assertEquals(7, restarting.occupancyPackets(BUF));
        server.shutdownNow().awaitTermination();
        // The failed connection attempt starts gRPC's reconnect backoff (about a second).
        assertReason(() -> restarting.occupancyPackets(BUF), FlowBufException.Reason.UNAVAILABLE);
        grpc.register(InProcessServerBuilder.forName(name).directExecutor().addService(agent)
                              .build().start());
        restarting.reconnectNow();
        assertEquals(7, restarting.occupancyPackets(BUF));
    }

    @Test
    public void aSlowVportCreateOrRemoveHasTheLinkDeadlineAndOtherCallsTheirOwn() throws Exception {
        String name = InProcessServerBuilder.generateName();
        grpc.register(InProcessServerBuilder.forName(name).addService(agent).build().start());
        DefaultBufferAgentClient quick = new DefaultBufferAgentClient(
                "slow-agent", InProcessAgent.APP_ID,
                grpc.register(InProcessChannelBuilder.forName(name).build()), false,
                Duration.ofMillis(100));
        agent.delayMs = 400;
        quick.apply(List.of(AgentOperation.createVport(SLOT, VportMode.RX_TX)));
        quick.apply(List.of(AgentOperation.createBuffer(BUF, BufferSpec.builder().capacityPackets(10)
                                                                .build()),
                            AgentOperation.removeVport(SLOT.id())));
        assertEquals(List.of("CreateVport org.flowbuf.test", "Batch org.flowbuf.test"), agent.calls);
        FlowBufException e = assertReason(
                () -> quick.apply(List.of(AgentOperation.setVportMode(SLOT.id(), VportMode.RX))),
                FlowBufException.Reason.UNAVAILABLE);
        assertTrue(e.getMessage(), e.getMessage().contains("deadline"));
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
