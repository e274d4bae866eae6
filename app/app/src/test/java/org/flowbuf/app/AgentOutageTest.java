/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.Vport;
import org.flowbuf.app.intent.IntentManager;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.southbound.DefaultBufferAgentClient;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.flowbuf.app.southbound.InProcessAgent;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.app.task.BufferManager;
import org.flowbuf.proto.buffer.v1.BufferConfig;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * An agent that goes away and comes back, over a real (in-process) gRPC
 * channel: buffer queries say it is unreachable instead of answering stale
 * figures, pauses and resumes are refused and change nothing, and a
 * reconciliation reaches it as soon as it listens again, without waiting out
 * the channel's reconnect backoff.
 */
public class AgentOutageTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final String AGENT = "127.0.0.1:28261 (device:s1)";
    private static final String OWNER = "app";
    private static final BufferId HELD = BufferId.bufferId("held");
    private static final BufferConfig HELD_CONFIG =
            BufferConfig.newBuilder().setCapacityPackets(4096).build();
    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P2 = PortNumber.portNumber(2);
    private static final FlowFilter FLOW_A = FlowFilter.builder()
            .ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).ipProto(17).build();
    private static final FlowFilter FLOW_B = FlowFilter.builder()
            .ipv4Src(IpPrefix.valueOf("10.0.0.3/32")).ipProto(17).build();

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private final String serverName = InProcessServerBuilder.generateName();
    private final List<String> rules = new CopyOnWriteArrayList<>();
    private final AtomicInteger readyWanted = new AtomicInteger();
    private FakeBufferAgent agent;
    private Server server;
    private BufferManager buffers;
    private IntentManager intents;

    /** Records rule writes; the switch, unlike the agent, stays up. */
    private final class RecordingWriter implements SteeringRuleWriter {
        @Override
        public void install(DeviceId deviceId, SteeringRule rule) {
            rules.add("+" + rule.priority() + "->" + rule.outPort());
        }

        @Override
        public void modify(DeviceId deviceId, SteeringRule rule) {
            rules.add("~" + rule.priority() + "->" + rule.outPort());
        }

        @Override
        public void remove(DeviceId deviceId, SteeringRule rule) {
            rules.add("-" + rule.priority() + "->" + rule.outPort());
        }
    }

    @Before
    public void setUp() throws Exception {
        agent = new FakeBufferAgent();
        server = startAgent();
        ManagedChannel channel = grpc.register(
                InProcessChannelBuilder.forName(serverName).directExecutor().build());
        DefaultBufferAgentClient client = new DefaultBufferAgentClient(
                AGENT, InProcessAgent.APP_ID, channel, false, Duration.ofSeconds(1));
        OneDeviceAgents agents = new OneDeviceAgents(S1, client, OneDeviceAgents.twoVports(),
                                                     readyWanted::get);
        buffers = new BufferManager(agents, new InMemoryBufferStore(), Runnable::run);
        intents = new IntentManager(buffers, agents, new RecordingWriter());
        buffers.createBuffer(S1, HELD, OWNER, BufferSpec.defaults(), BufferState.BUFFERING);
        intents.pause(S1, P1, FLOW_A, Optional.of(HELD), OWNER);
        agent.setOccupancy(2107);
    }

    private Server startAgent() throws IOException {
        return InProcessServerBuilder.forName(serverName).directExecutor().addService(agent)
                .build().start();
    }

    // kill -9 of the agent: its end of the connection goes at once.
    private void killAgent() throws InterruptedException {
        server.shutdownNow();
        assertTrue(server.awaitTermination(5, TimeUnit.SECONDS));
    }

    private void restartAgent() throws IOException {
        server = grpc.register(startAgent());
    }

    private static FlowBufException assertUnreachable(Supplier<?> call) {
        try {
            Object answer = call.get();
            fail("expected the agent to be reported unreachable, got " + answer);
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage() + " should name the agent as unreachable",
                       e.getMessage().startsWith("agent " + AGENT + " is unreachable: "));
            return e;
        }
        return null;
    }

    @Test
    public void bufferQueriesSayTheAgentIsUnreachableInsteadOfStaleFigures() throws Exception {
        assertEquals(2107, buffers.getBuffer(S1, HELD).orElseThrow().occupancyPackets());
        killAgent();
        assertUnreachable(() -> buffers.getBuffer(S1, HELD));
        assertUnreachable(() -> buffers.getBuffers(S1));
        assertUnreachable(() -> buffers.getStatistics(S1, HELD));
        // What needs no agent still answers: the buffer and its vport are known.
        assertEquals(Optional.of(HELD), buffers.getVports(S1).get(0).buffer());
        restartAgent();
        buffers.reconcile(S1);
        assertEquals(2107, buffers.getBuffer(S1, HELD).orElseThrow().occupancyPackets());
    }

    @Test
    public void pausesAndResumesWhileTheAgentIsGoneAreRefusedAndChangeNothing()
            throws Exception {
        List<FlowBufIntent> intentsBefore = new ArrayList<>(intents.getIntents());
        List<Vport> vportsBefore = buffers.getVports(S1);
        List<String> rulesBefore = List.copyOf(rules);
        killAgent();
        int callsBefore = agent.calls.size();
        List<Supplier<?>> refused = List.of(
                // Into a buffer that already receives: the pause's own steps call no agent.
                () -> intents.pause(S1, P1, FLOW_B, Optional.of(HELD), OWNER),
                // Into a new buffer.
                () -> intents.pause(S1, P1, FLOW_B, Optional.empty(), OWNER),
                () -> intents.resume(S1, P2, FLOW_A, Optional.empty(), OWNER),
                () -> intents.pauseAll(S1, List.of(FLOW_B.withInPort(P1)), HELD, OWNER),
                () -> intents.resumeAll(S1, P2, List.of(FLOW_A), HELD, OWNER));
        refused.forEach(AgentOutageTest::assertUnreachable);
        assertEquals(intentsBefore, new ArrayList<>(intents.getIntents()));
        assertEquals(vportsBefore, buffers.getVports(S1));
        assertEquals(rulesBefore, rules);
        agent.setListed(List.of(FakeBufferAgent.listedBuffer(
                HELD.id(), "vp100", HELD_CONFIG, 2107)),
                        List.of(FakeBufferAgent.listedRxVport("vp100")));
        restartAgent();
        assertEquals(List.of(), buffers.reconcile(S1));
        // The agent saw none of the refused calls: only the reconciliation's lists.
        assertEquals(List.of("ListBuffers " + InProcessAgent.APP_ID,
                             "ListVports " + InProcessAgent.APP_ID),
                     agent.calls.subList(callsBefore, agent.calls.size()));
        // Once it is back, the held flow resumes.
        FlowBufIntent resumed = intents.resume(S1, P2, FLOW_A, Optional.empty(), OWNER);
        assertEquals(FlowBufIntent.State.INSTALLED, resumed.state());
    }

    @Test
    public void aPauseIntoAReadyBufferIsRefusedWhileTheAgentIsGone() throws Exception {
        readyWanted.set(1);
        buffers.reconcile(S1); // makes the ready buffer
        assertEquals(2, buffers.getVports(S1).stream().filter(v -> v.buffer().isPresent())
                .count());
        killAgent();
        assertUnreachable(() -> intents.pause(S1, P1, FLOW_B, Optional.empty(), OWNER));
        assertEquals(List.of("+100->100"), rules);
    }

    @Test
    public void aReconciliationReachesTheAgentAsSoonAsItListensAgain() throws Exception {
        killAgent();
        // The outage is noticed: the channel fails a connection attempt and
        // would wait about a second (gRPC's initial backoff) before the next.
        assertUnreachable(() -> buffers.getBuffer(S1, HELD));
        assertUnreachable(() -> buffers.reconcile(S1));
        agent.setListed(List.of(FakeBufferAgent.listedBuffer(
                HELD.id(), "vp100", HELD_CONFIG, 2107)),
                        List.of(FakeBufferAgent.listedRxVport("vp100")));
        restartAgent();
        long start = System.nanoTime();
        List<BufferEvent> events = buffers.reconcile(S1);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals("the agent kept the buffer: nothing to adopt or re-create", List.of(),
                     events);
        assertTrue("reconcile took " + tookMs + " ms", tookMs < 500);
        assertEquals(2107, buffers.getBuffer(S1, HELD).orElseThrow().occupancyPackets());
    }
}
