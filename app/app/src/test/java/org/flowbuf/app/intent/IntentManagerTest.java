/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import io.grpc.Status;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.flowbuf.app.southbound.InProcessAgent;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.app.task.BufferManager;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** pause/resume: step order, buffer choice, reuse, rollback and refusals. */
public class IntentManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final String APP = "app";
    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P2 = PortNumber.portNumber(2);
    private static final PortNumber P3 = PortNumber.portNumber(3);
    private static final FlowFilter UDP_FLOW = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17).l4DstPort(9000).build();

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private FakeBufferAgent agent;
    private AgentDirectory directory;
    private BufferManager buffers;
    private RecordingWriter writer;
    private IntentManager intents;

    /** Records rule writes in the agent's call log, so order across both shows. */
    private final class RecordingWriter implements SteeringRuleWriter {
        private FlowBufException failNext;

        @Override
        public void install(DeviceId deviceId, SteeringRule rule) {
            agent.calls.add("install " + describe(rule));
            if (failNext != null) {
                FlowBufException e = failNext;
                failNext = null;
                throw e;
            }
        }

        @Override
        public void modify(DeviceId deviceId, SteeringRule rule) {
            agent.calls.add("modify " + describe(rule));
        }

        @Override
        public void remove(DeviceId deviceId, SteeringRule rule) {
            agent.calls.add("remove " + describe(rule));
        }

        /** One write for the batch, refused as a whole, like a target's Write. */
        @Override
        public void installAll(DeviceId deviceId, List<SteeringRule> rules) {
            agent.calls.add("install-all " + rules.size());
            if (failNext != null) {
                FlowBufException e = failNext;
                failNext = null;
                throw e;
            }
        }

        @Override
        public void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
            agent.calls.add("remove-all " + rules.size());
        }
    }

    private static String describe(SteeringRule r) {
        return (r.fromVport() ? "replay " : "flow ") + r.ingressPort().orElse(0L) + "->"
                + r.outPort() + "@" + r.priority();
    }

    @Before
    public void setUp() throws Exception {
        agent = new FakeBufferAgent();
        BufferAgentClient client = InProcessAgent.start(grpc, agent, "s1");
        List<VportSlot> slots = List.of(new VportSlot(VportId.vportId("vp100"), 100, null),
                                        new VportSlot(VportId.vportId("vp101"), 101, null));
        directory = new AgentDirectory() {
            @Override
            public BufferAgentClient agent(DeviceId deviceId) {
                return client;
            }

            @Override
            public List<VportSlot> vportSlots(DeviceId deviceId) {
                return slots;
            }

            @Override
            public Set<DeviceId> devices() {
                return Set.of(S1);
            }
        };
        buffers = new BufferManager(directory, new InMemoryBufferStore());
        writer = new RecordingWriter();
        intents = new IntentManager(buffers, directory, writer);
    }

    private static List<FlowFilter> flows(int count, PortNumber inPort) {
        List<FlowFilter> flows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            flows.add(FlowFilter.builder().inPort(inPort).ipProto(17).l4DstPort(20000 + i)
                              .build());
        }
        return flows;
    }

    @Test
    public void aPauseIntoAReadyBufferWritesItsRuleAndNothingElse() {
        AgentDirectory keepsOne = new OneDeviceAgents(S1, directory.agent(S1),
                                                      directory.vportSlots(S1), () -> 1);
        List<Runnable> topUps = new ArrayList<>();
        buffers = new BufferManager(keepsOne, new InMemoryBufferStore(), topUps::add);
        intents = new IntentManager(buffers, keepsOne, writer);
        buffers.reconcile(S1);
        topUps.remove(0).run();
        agent.calls.clear();

        FlowBufIntent pause = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        assertEquals(Optional.of(BufferId.bufferId("ready-1")), pause.bufferId());
        assertEquals(List.of("install flow 1->100@100"), agent.calls);
        // The next ready buffer is made afterwards, off the pause's path.
        topUps.remove(0).run();
        assertEquals(List.of("install flow 1->100@100", "Batch org.flowbuf.test"), agent.calls);
        assertEquals(APP, buffers.getBuffer(S1, BufferId.bufferId("ready-1")).get().owner());
    }

    @Test
    public void aRestartedServiceAdoptsTheRulesTheSwitchKeptAndResumesByFilter() {
        BufferId held = BufferId.bufferId("held");
        buffers.createBuffer(S1, held, APP, BufferSpec.defaults(), BufferState.BUFFERING);
        SteeringRule pauseRule = new SteeringRule(UDP_FLOW, false, 1L, 100,
                                                  IntentManager.PAUSE_PRIORITY);
        List<SteeringRule> onSwitch = List.of(
                pauseRule,
                // A replay from vp101, which no buffer is bound to: left alone.
                new SteeringRule(UDP_FLOW, true, 101L, 2, IntentManager.RESUME_PRIORITY),
                // Not into a vport: no buffer to name, left alone.
                new SteeringRule(UDP_FLOW, false, 3L, 2, IntentManager.PAUSE_PRIORITY));
        IntentManager restarted = new IntentManager(buffers, directory, writer);
        List<FlowBufIntent> adopted = restarted.adopt(S1, onSwitch);
        assertEquals(1, adopted.size());
        FlowBufIntent pause = adopted.get(0);
        assertEquals(FlowBufIntent.Type.PAUSE, pause.type());
        assertEquals(FlowBufIntent.State.INSTALLED, pause.state());
        assertEquals(Optional.of(held), pause.bufferId());
        assertEquals(P1, pause.port());
        assertEquals(APP, pause.owner());
        assertEquals(List.of(pauseRule), restarted.installedRules(S1));
        assertEquals("adopting again adopts nothing", List.of(), restarted.adopt(S1, onSwitch));

        agent.calls.clear();
        FlowBufIntent resume = restarted.resume(S1, P2, UDP_FLOW, Optional.empty(), APP);
        assertEquals(FlowBufIntent.State.INSTALLED, resume.state());
        assertEquals(Optional.of(held), resume.bufferId());
        assertEquals(List.of("install replay 100->2@" + IntentManager.RESUME_PRIORITY,
                             "SetVportMode org.flowbuf.test"), agent.calls);
    }

    @Test
    public void aBatchMovesTheBufferOnceAndWritesEveryRuleInOneWrite() {
        BufferId b = BufferId.bufferId("b");
        buffers.createBuffer(S1, b, APP, BufferSpec.defaults(), BufferState.FORWARDING);
        agent.calls.clear();
        List<FlowFilter> flows = flows(3, P1);
        List<FlowBufIntent> paused = intents.pauseAll(S1, flows, b, APP);
        assertEquals(List.of("SetVportMode org.flowbuf.test", "install-all 3"), agent.calls);
        assertEquals(3, paused.size());
        for (FlowBufIntent intent : paused) {
            assertEquals(FlowBufIntent.State.INSTALLED, intent.state());
            assertEquals(Optional.of(b), intent.bufferId());
            assertEquals(P1, intent.port());
        }
        agent.calls.clear();
        List<FlowBufIntent> resumed = intents.resumeAll(S1, P3, flows, b, APP);
        // Every replay rule is in place before the buffer transmits.
        assertEquals(List.of("install-all 3", "SetVportMode org.flowbuf.test"), agent.calls);
        assertEquals(BufferState.FORWARDING, buffers.getBuffer(S1, b).get().state());
        assertEquals(P3, resumed.get(2).port());
        agent.calls.clear();
        intents.pauseAll(S1, flows, b, APP);
        // Pausing the same flows again takes their rules over: no write.
        assertEquals(List.of("SetVportMode org.flowbuf.test", "install-all 0"), agent.calls);
        assertEquals(FlowBufIntent.State.WITHDRAWN,
                     intents.getIntent(paused.get(0).id()).get().state());
    }

    @Test
    public void aRefusedBatchLeavesTheBufferAsItWasAndEveryIntentFailed() {
        BufferId b = BufferId.bufferId("b");
        buffers.createBuffer(S1, b, APP, BufferSpec.defaults(), BufferState.FORWARDING);
        agent.calls.clear();
        writer.failNext = FlowBufException.conflict("table full");
        assertReason(() -> intents.pauseAll(S1, flows(3, P1), b, APP),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(List.of("SetVportMode org.flowbuf.test", "install-all 3",
                             "SetVportMode org.flowbuf.test"), agent.calls);
        assertEquals(BufferState.FORWARDING, buffers.getBuffer(S1, b).get().state());
        assertEquals(3, intents.getIntents().size());
        intents.getIntents().forEach(i -> assertEquals(FlowBufIntent.State.FAILED, i.state()));

        buffers.moveBuffer(S1, b, APP, BufferState.BUFFERING);
        agent.calls.clear();
        agent.failNext("SetVportMode", Status.FAILED_PRECONDITION.withDescription("busy"));
        assertReason(() -> intents.resumeAll(S1, P3, flows(2, P1), b, APP),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(List.of("install-all 2", "SetVportMode org.flowbuf.test", "remove-all 2"),
                     agent.calls);
    }

    @Test
    public void badBatchesAreRefusedBeforeAnythingHappens() {
        BufferId b = BufferId.bufferId("b");
        buffers.createBuffer(S1, b, APP, BufferSpec.defaults(), BufferState.FORWARDING);
        agent.calls.clear();
        assertReason(() -> intents.pauseAll(S1, List.of(), b, APP),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> intents.pauseAll(S1, flows(IntentBatches.MAX_FLOWS + 1, P1), b, APP),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> intents.pauseAll(S1, List.of(UDP_FLOW), b, APP),
                     FlowBufException.Reason.INVALID);  // no in-port
        List<FlowFilter> twice = List.of(flows(1, P1).get(0), flows(1, P1).get(0));
        assertReason(() -> intents.pauseAll(S1, twice, b, APP), FlowBufException.Reason.INVALID);
        List<FlowFilter> sameReplay = List.of(flows(1, P1).get(0), flows(1, P2).get(0));
        assertReason(() -> intents.resumeAll(S1, P3, sameReplay, b, APP),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> intents.resumeAll(S1, PortNumber.CONTROLLER, flows(1, P1), b, APP),
                     FlowBufException.Reason.INVALID);
        assertTrue(agent.calls.isEmpty());
        assertTrue(intents.getIntents().isEmpty());
        assertReason(() -> intents.pauseAll(S1, flows(2, P1), BufferId.bufferId("nope"), APP),
                     FlowBufException.Reason.NOT_FOUND);
        assertTrue(agent.calls.isEmpty());
        assertTrue(intents.getIntents().isEmpty());
    }

    @Test
    public void lifecycleChangesAreAnnounced() {
        List<String> seen = new ArrayList<>();
        intents.setEventSink(e -> seen.add(e.type() + " " + e.subject().type()));
        intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        writer.failNext = FlowBufException.invalid("table full");
        try {
            intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP);
        } catch (FlowBufException expected) {
            seen.add("refused");
        }
        assertEquals(List.of("INTENT_REQUESTED PAUSE", "INTENT_INSTALLED PAUSE",
                             "INTENT_REQUESTED RESUME", "INTENT_FAILED RESUME", "refused"), seen);
    }

    @Test
    public void pauseMakesANewBufferReceiveBeforeSteeringTheFlowIntoIt() {
        FlowBufIntent pause = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        assertEquals(FlowBufIntent.State.INSTALLED, pause.state());
        assertEquals(List.of("Batch org.flowbuf.test", "install flow 1->100@100"), agent.calls);
        BufferId id = pause.bufferId().get();
        assertEquals(BufferState.BUFFERING, buffers.getBuffer(S1, id).get().state());
    }

    @Test
    public void resumeTowardsAnotherPortRoutesReplaysBeforeTransmitting() {
        FlowBufIntent pause = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        agent.calls.clear();
        FlowBufIntent resume = intents.resume(S1, P3, UDP_FLOW, Optional.empty(), APP);
        assertEquals(pause.bufferId(), resume.bufferId());
        assertEquals(List.of("install replay 100->3@200",
                             "SetVportMode org.flowbuf.test"),
                     agent.calls);
        assertEquals(BufferState.FORWARDING,
                     buffers.getBuffer(S1, resume.bufferId().get()).get().state());
    }

    @Test
    public void pausingAgainReusesTheBufferWithOneSetVportMode() {
        FlowBufIntent first = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP);
        agent.calls.clear();
        FlowBufIntent again = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        assertEquals(first.bufferId(), again.bufferId());
        // The vport mode is known locally: no occupancy query before the move.
        assertEquals(List.of("SetVportMode org.flowbuf.test"), agent.calls);
        assertEquals(FlowBufIntent.State.WITHDRAWN, intents.getIntent(first.id()).get().state());
    }

    @Test
    public void aPauseWithoutABufferJoinsTheLatestPauseOfTheSameFlow() {
        intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        BufferId later = BufferId.bufferId("later");
        buffers.createBuffer(S1, later, APP, BufferSpec.defaults(), BufferState.BUFFERING);
        intents.pause(S1, P2, UDP_FLOW, Optional.of(later), APP);
        FlowBufIntent third = intents.pause(S1, P3, UDP_FLOW, Optional.empty(), APP);
        assertEquals(Optional.of(later), third.bufferId());
    }

    @Test
    public void aPausedFlowPausedIntoAnotherBufferIsRefusedBeforeAnythingHappens() {
        FlowBufIntent first = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        BufferId other = BufferId.bufferId("other");
        buffers.createBuffer(S1, other, APP, BufferSpec.defaults(), BufferState.FREE);
        for (boolean resumed : new boolean[] {false, true}) {
            if (resumed) { // the flow passes through its buffer: still steered into it
                intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP);
            }
            List<FlowBufIntent> before = List.copyOf(intents.getIntents());
            agent.calls.clear();
            try {
                intents.pause(S1, P1, UDP_FLOW, Optional.of(other), APP);
                fail("a second buffer for a steered flow");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
                assertTrue(e.getMessage(), e.getMessage().contains(
                        "already steers into buffer " + first.bufferId().get().id()));
            }
            assertEquals(List.of(), agent.calls); // no agent call, no rule write
            assertEquals(before, List.copyOf(intents.getIntents())); // nothing recorded
        }
        // Into its own buffer, or at another in-port (another rule), it is a pause.
        assertEquals(first.bufferId(),
                     intents.pause(S1, P1, UDP_FLOW, first.bufferId(), APP).bufferId());
        assertEquals(Optional.of(other),
                     intents.pause(S1, P3, UDP_FLOW, Optional.of(other), APP).bufferId());
    }

    @Test
    public void anotherOwnersReceivingBufferIsRefusedAndItsPauseKept() {
        FlowBufIntent mine = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        agent.calls.clear();
        FlowFilter other = FlowFilter.builder().ipProto(6).build();
        assertReason(() -> intents.pause(S1, P2, other, mine.bufferId(), "other"),
                     FlowBufException.Reason.FORBIDDEN);
        // The same flow without a buffer would join the paused one's buffer: refused too.
        assertReason(() -> intents.pause(S1, P1, UDP_FLOW, Optional.empty(), "other"),
                     FlowBufException.Reason.FORBIDDEN);
        assertReason(() -> intents.pauseAll(S1, flows(2, P2), mine.bufferId().get(), "other"),
                     FlowBufException.Reason.FORBIDDEN);
        assertEquals(List.of(), agent.calls); // rule writes are logged here too
        assertEquals(FlowBufIntent.State.INSTALLED, intents.getIntent(mine.id()).get().state());
    }

    @Test
    public void onlyTheLatestFinishedIntentsAreKept() {
        intents = new IntentManager(buffers, directory, writer, new InMemoryIntentStore(), 2);
        List<IntentId> withdrawn = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            FlowBufIntent pause = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
            intents.withdraw(pause.id(), APP);
            withdrawn.add(pause.id());
            buffers.removeBuffer(S1, pause.bufferId().get(), APP, true);
        }
        FlowBufIntent installed = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        assertEquals(Optional.empty(), intents.getIntent(withdrawn.get(0)));
        assertEquals(List.of(withdrawn.get(1), withdrawn.get(2), installed.id()),
                     intents.getIntents().stream().map(FlowBufIntent::id)
                             .collect(Collectors.toList()));
    }

    @Test
    public void pausingIntoABufferThatIsAlreadyBufferingCallsNoAgent() {
        FlowBufIntent first = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        agent.calls.clear();
        FlowFilter other = FlowFilter.builder().ipProto(6).build();
        FlowBufIntent second = intents.pause(S1, P2, other, first.bufferId(), APP);
        assertEquals(first.bufferId(), second.bufferId());
        assertEquals(List.of("install flow 2->100@100"), agent.calls);
    }

    @Test
    public void aRefusedRuleRestoresAStoringBufferItMoved() {
        BufferId stored = BufferId.bufferId("stored");
        buffers.createBuffer(S1, stored, APP, BufferSpec.defaults(), BufferState.BUFFERING);
        agent.setOccupancy(5);
        buffers.moveBuffer(S1, stored, APP, BufferState.STORING);
        writer.failNext = FlowBufException.invalid("table full");
        assertReason(() -> intents.pause(S1, P1, UDP_FLOW, Optional.of(stored), APP),
                     FlowBufException.Reason.INVALID);
        assertEquals(BufferState.STORING, buffers.getBuffer(S1, stored).get().state());
    }

    @Test
    public void aPauseRefusedForItsInputLeavesNoIntentAndNoBuffer() {
        // ONOS live: a pause at in-port 600 (beyond the switch's 9-bit ports,
        // refused when its rule was translated) answered 400 and left a
        // FAILED intent in the intent store.
        List<String> seen = new ArrayList<>();
        intents.setEventSink(e -> seen.add(e.type() + " " + e.subject().type()));
        writer.failNext = FlowBufException.invalid("port 600 does not fit 9 bits");
        assertReason(() -> intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP),
                     FlowBufException.Reason.INVALID);
        assertTrue(intents.getIntents().isEmpty());
        assertTrue(buffers.getBuffers(S1).isEmpty());
        assertEquals(List.of("INTENT_REQUESTED PAUSE", "INTENT_FAILED PAUSE"), seen);
    }

    @Test
    public void aResumeOfNoPausedFlowLeavesNoIntent() {
        // ONOS live: a resume of a flow nothing paused answered 404 and left
        // a FAILED intent.
        assertReason(() -> intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP),
                     FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> intents.resumeAll(S1, P2, flows(2, P1), BufferId.bufferId("nope"),
                                             APP), FlowBufException.Reason.NOT_FOUND);
        assertTrue(intents.getIntents().isEmpty());
    }

    @Test
    public void aRefusedRuleRemovesTheBufferThePauseCreated() {
        writer.failNext = new FlowBufException(FlowBufException.Reason.EXHAUSTED, "table full");
        try {
            intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
            fail("pause succeeded");
        } catch (FlowBufException e) {
            assertEquals("table full", e.getMessage());
        }
        assertTrue(buffers.getBuffers(S1).isEmpty());
        FlowBufIntent failed = intents.getIntents().iterator().next();
        assertEquals(FlowBufIntent.State.FAILED, failed.state());
        assertEquals("table full", failed.failure().get());
    }

    @Test
    public void aRefusedBufferMoveOnResumeRemovesTheReplayRule() {
        intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        agent.calls.clear();
        agent.failNext("SetVportMode", Status.FAILED_PRECONDITION.withDescription("agent busy"));
        assertReason(() -> intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(List.of("install replay 100->2@200",
                             "SetVportMode org.flowbuf.test",
                             "remove replay 100->2@200"), agent.calls);
    }

    @Test
    public void withdrawingAPauseThatHoldsPacketsIsRefused() {
        FlowBufIntent pause = intents.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        agent.setOccupancy(7);
        assertReason(() -> intents.withdraw(pause.id(), APP), FlowBufException.Reason.CONFLICT);
        assertReason(() -> intents.withdraw(pause.id(), "other"), FlowBufException.Reason.FORBIDDEN);
        agent.setOccupancy(0);
        intents.withdraw(pause.id(), APP);
        assertEquals(FlowBufIntent.State.WITHDRAWN, intents.getIntent(pause.id()).get().state());
        assertEquals("remove flow 1->100@100", agent.calls.get(agent.calls.size() - 1));
    }

    @Test
    public void badRequestsAreRefused() {
        assertReason(() -> intents.resume(S1, P2, UDP_FLOW, Optional.empty(), APP),
                     FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> intents.pause(S1, PortNumber.CONTROLLER, UDP_FLOW, Optional.empty(), APP),
                     FlowBufException.Reason.INVALID);
        FlowFilter onPort2 = FlowFilter.builder().inPort(P2).build();
        assertReason(() -> intents.pause(S1, P1, onPort2, Optional.empty(), APP),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> intents.pause(S1, P1, UDP_FLOW, Optional.of(BufferId.bufferId("nope")),
                                         APP),
                     FlowBufException.Reason.NOT_FOUND);
        assertTrue(buffers.getBuffers(S1).isEmpty());
    }


    @Test
    public void aPauseIntoALogicalVportPushesItsTagAndItsReplayRuleDoesNot() {
        Vport logical = new Vport(VportId.vportId("ue.7"), 12, 7, BufferId.bufferId("u7"),
                                  VportMode.RX);
        PortNumber in = PortNumber.portNumber(1);
        assertEquals(SteeringRule.toBuffer(UDP_FLOW.withoutInPort(), 1L, 12, 7,
                                           IntentManager.PAUSE_PRIORITY),
                     IntentManager.pauseRule(UDP_FLOW, in, logical));
        // Replays leave the shared port untagged; the 5-tuple tells them apart.
        SteeringRule replay = IntentManager.replayRule(UDP_FLOW, logical, PortNumber.portNumber(2));
        assertEquals(0, replay.tag());
        assertEquals(Optional.of(12L), replay.ingressPort());
    }

    @Test
    public void pausesWithoutABufferTakeOneLogicalVportEachUntilTheTagsRunOut() throws Exception {
        List<VportSlot> tagged = List.of(new VportSlot(VportId.vportId("ue.1"), 12, null, 0, 1),
                                         new VportSlot(VportId.vportId("ue.2"), 12, null, 0, 2));
        AgentDirectory shared = new OneDeviceAgents(
                S1, InProcessAgent.start(grpc, new FakeBufferAgent(), "s1-tags"), tagged);
        IntentManager ues = new IntentManager(new BufferManager(shared, new InMemoryBufferStore()),
                                              shared, writer);
        FlowFilter second = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.3/32")).build();
        ues.pause(S1, P1, UDP_FLOW, Optional.empty(), APP);
        ues.pause(S1, P1, second, Optional.empty(), APP);
        assertEquals(Set.of(SteeringRule.toBuffer(UDP_FLOW, 1L, 12, 1, IntentManager.PAUSE_PRIORITY),
                            SteeringRule.toBuffer(second, 1L, 12, 2, IntentManager.PAUSE_PRIORITY)),
                     Set.copyOf(ues.installedRules(S1)));
        FlowFilter third = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.4/32")).build();
        assertReason(() -> ues.pause(S1, P1, third, Optional.empty(), APP),
                     FlowBufException.Reason.EXHAUSTED);
        assertEquals(2, ues.installedRules(S1).size());
    }

    @Test
    public void aRestartedServiceAdoptsPausesIntoLogicalVportsByTheirTag() throws Exception {
        List<VportSlot> tagged = List.of(new VportSlot(VportId.vportId("ue.1"), 12, null, 0, 1),
                                         new VportSlot(VportId.vportId("ue.2"), 12, null, 0, 2));
        AgentDirectory shared = new OneDeviceAgents(
                S1, InProcessAgent.start(grpc, new FakeBufferAgent(), "s1-adopt"), tagged);
        BufferManager onTags = new BufferManager(shared, new InMemoryBufferStore());
        onTags.createBuffer(S1, BufferId.bufferId("first"), APP, BufferSpec.defaults(),
                            BufferState.BUFFERING);
        onTags.createBuffer(S1, BufferId.bufferId("second"), APP, BufferSpec.defaults(),
                            BufferState.BUFFERING);
        SteeringRule intoSecond = SteeringRule.toBuffer(UDP_FLOW, 1L, 12, 2,
                                                        IntentManager.PAUSE_PRIORITY);
        List<SteeringRule> onSwitch = List.of(
                intoSecond,
                // No logical vport 9 on port 12: left alone.
                SteeringRule.toBuffer(UDP_FLOW, 3L, 12, 9, IntentManager.PAUSE_PRIORITY));
        IntentManager restarted = new IntentManager(onTags, shared, writer);
        List<FlowBufIntent> adopted = restarted.adopt(S1, onSwitch);
        assertEquals(1, adopted.size());
        assertEquals(Optional.of(BufferId.bufferId("second")), adopted.get(0).bufferId());
        assertEquals(List.of(intoSecond), restarted.installedRules(S1));
    }
}
