/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import io.grpc.Status;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.flowbuf.app.southbound.InProcessAgent;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.BufferStore;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.proto.buffer.v1.BufferConfig;
import org.flowbuf.proto.buffer.v1.Operation;
import org.flowbuf.proto.buffer.v1.ReportSync;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The task-level service: what it sends, what it stores, what it refuses. */
public class BufferManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final BufferSpec SPEC = BufferSpec.builder().capacityPackets(1000).build();
    private static final BufferId B1 = BufferId.bufferId("b1");
    private static final BufferId B2 = BufferId.bufferId("b2");
    private static final BufferConfig CAPACITY_500 =
            BufferConfig.newBuilder().setCapacityPackets(500).build();

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private FakeBufferAgent agent;
    private BufferManager manager;

    @Before
    public void setUp() throws Exception {
        agent = new FakeBufferAgent();
        BufferAgentClient client = InProcessAgent.start(grpc, agent, "s1");
        manager = new BufferManager(new OneDeviceAgents(S1, client, OneDeviceAgents.twoVports()),
                                    new InMemoryBufferStore());
    }

    @Test
    public void everyChangeIsAnnouncedOnceAndUnchangedStatesAreNot() {
        List<String> seen = new ArrayList<>();
        manager.setEventSink(e -> seen.add(e.type() + " " + e.subject().state()));
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        manager.moveBuffer(S1, B1, "app", BufferState.BUFFERING);
        manager.moveBuffer(S1, B1, "app", BufferState.FORWARDING);
        manager.removeBuffer(S1, B1, "app", true);
        assertEquals(List.of("BUFFER_ADDED BUFFERING", "BUFFER_STATE_CHANGED FORWARDING",
                             "BUFFER_REMOVED FORWARDING"), seen);
    }

    @Test
    public void createIsOneAtomicBatchOnAFreeVport() {
        Buffer b = manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        assertEquals(BufferState.BUFFERING, b.state());
        assertEquals(List.of("Batch org.flowbuf.test"), agent.calls);
        assertEquals(List.of(Operation.OpCase.CREATE_BUFFER, Operation.OpCase.CREATE_VPORT,
                             Operation.OpCase.BIND), opCases());
        Buffer second = manager.createBuffer(S1, B2, "app", SPEC, BufferState.FREE);
        assertEquals("vp101", second.vport().id());
        assertEquals(2, manager.getBuffers(S1).size());
    }

    @Test
    public void forwardingToBufferingSendsOneSetVportMode() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FORWARDING);
        agent.calls.clear();
        agent.setOccupancy(0);
        Buffer paused = manager.moveBuffer(S1, B1, "app", BufferState.BUFFERING);
        assertEquals(BufferState.BUFFERING, paused.state());
        assertEquals(List.of("SetVportMode org.flowbuf.test"),
                     agent.calls);
    }

    @Test
    public void aRefusedRequestChangesNothing() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FORWARDING);
        agent.failNext(Status.RESOURCE_EXHAUSTED.withDescription("pool full"));
        assertReason(() -> manager.createBuffer(S1, B2, "app", SPEC, BufferState.FREE),
                     FlowBufException.Reason.EXHAUSTED);
        assertFalse(manager.getBuffer(S1, B2).isPresent());

        agent.setOccupancy(5);
        assertReason(() -> manager.moveBuffer(S1, B1, "app", BufferState.FREE),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(BufferState.FORWARDING, manager.getBuffer(S1, B1).get().state());
    }

    @Test
    public void badRequestsAreRefusedWithTheirReason() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FREE);
        assertReason(() -> manager.createBuffer(S1, B1, "app", SPEC, BufferState.FREE),
                     FlowBufException.Reason.CONFLICT);
        assertReason(() -> manager.createBuffer(S1, B2, "app", SPEC, BufferState.SERVING),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> manager.createBuffer(DeviceId.deviceId("device:nope"), B2, "app", SPEC,
                                                BufferState.FREE),
                     FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> manager.moveBuffer(S1, B2, "app", BufferState.FREE),
                     FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> manager.moveBuffer(S1, B1, "intruder", BufferState.FORWARDING),
                     FlowBufException.Reason.FORBIDDEN);
        assertReason(() -> manager.removeBuffer(S1, B1, "intruder", true),
                     FlowBufException.Reason.FORBIDDEN);
        manager.createBuffer(S1, B2, "app", SPEC, BufferState.FREE);
        assertReason(() -> manager.createBuffer(S1, BufferId.bufferId("b3"), "app", SPEC,
                                                BufferState.FREE),
                     FlowBufException.Reason.EXHAUSTED);
    }

    @Test
    public void removeFreesTheVportForTheNextBuffer() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FREE);
        agent.applied.clear();
        manager.removeBuffer(S1, B1, "app", false);
        assertEquals(List.of(Operation.OpCase.UNBIND, Operation.OpCase.REMOVE_VPORT,
                             Operation.OpCase.REMOVE_BUFFER), opCases());
        assertTrue(manager.getBuffers(S1).isEmpty());
        assertEquals("vp100", manager.createBuffer(S1, B2, "app", SPEC, BufferState.FREE)
                .vport().id());
    }

    private List<Operation.OpCase> opCases() {
        return agent.applied.stream().map(Operation::getOpCase).collect(Collectors.toList());
    }


    @Test
    public void taggedSlotsGiveOneLogicalVportPerBufferUntilTheTagsRunOut() throws Exception {
        List<VportSlot> tagged = new ArrayList<>();
        for (int tag = 1; tag <= 3; tag++) {
            tagged.add(new VportSlot(VportId.vportId("ue." + tag), 12, null, 0, tag));
        }
        FakeBufferAgent shared = new FakeBufferAgent();
        BufferManager onTags = new BufferManager(
                new OneDeviceAgents(S1, InProcessAgent.start(grpc, shared, "s1-tags"), tagged),
                new InMemoryBufferStore());
        for (int i = 1; i <= 3; i++) {
            onTags.createBuffer(S1, BufferId.bufferId("u" + i), "app", SPEC, BufferState.BUFFERING);
        }
        List<Long> tags = shared.applied.stream().filter(Operation::hasCreateVport)
                .map(op -> (long) op.getCreateVport().getConfig().getTag())
                .collect(Collectors.toList());
        assertEquals(List.of(1L, 2L, 3L), tags);
        assertTrue(shared.applied.stream().filter(Operation::hasCreateVport)
                           .allMatch(op -> op.getCreateVport().getConfig().getSwitchPort() == 12));
        List<Vport> vports = onTags.getVports(S1);
        assertEquals(3, vports.stream().map(Vport::tag).distinct().count());
        try {
            onTags.createBuffer(S1, BufferId.bufferId("u4"), "app", SPEC, BufferState.BUFFERING);
            fail("a fourth buffer on three tags");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.EXHAUSTED, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("tags"));
        }
        assertFalse(onTags.getBuffer(S1, BufferId.bufferId("u4")).isPresent());
        onTags.removeBuffer(S1, BufferId.bufferId("u2"), "app", true);
        onTags.createBuffer(S1, BufferId.bufferId("u4"), "app", SPEC, BufferState.BUFFERING);
        assertEquals(VportId.vportId("ue.2"),
                     onTags.getBuffer(S1, BufferId.bufferId("u4")).get().vport());
    }

    @Test
    public void vportsShowWhichBufferIsBoundAndInWhichMode() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        List<Vport> vports = manager.getVports(S1);
        assertEquals(2, vports.size());
        assertEquals(Optional.of(B1), vports.get(0).buffer());
        assertEquals(VportMode.RX, vports.get(0).mode());
        assertEquals(Optional.empty(), vports.get(1).buffer());
        assertEquals(VportMode.NONE, vports.get(1).mode());
        assertEquals(Set.of(S1), manager.getDevices());
    }

    @Test
    public void eventsOfABufferAreKeptInOrderAndANewBufferStartsAfresh() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        manager.moveBuffer(S1, B1, "app", BufferState.FORWARDING);
        manager.removeBuffer(S1, B1, "app", false);
        assertEquals(List.of(BufferEvent.Type.BUFFER_ADDED, BufferEvent.Type.BUFFER_STATE_CHANGED,
                             BufferEvent.Type.BUFFER_REMOVED),
                     manager.getEvents(S1, B1).stream().map(BufferEvent::type)
                             .collect(Collectors.toList()));
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FREE);
        assertEquals(1, manager.getEvents(S1, B1).size());
        assertTrue(manager.getEvents(S1, B2).isEmpty());
    }

    @Test
    public void statisticsComeFromTheAgentAndOnlyForKnownBuffers() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        agent.setOccupancy(7);
        assertEquals(7, manager.getStatistics(S1, B1).orElseThrow().occupancyPackets());
        assertEquals(Optional.empty(), manager.getStatistics(S1, B2));
    }

    @Test
    public void aRestartedControllerAdoptsWhatTheAgentHoldsWithoutTouchingIt() {
        agent.setListed(List.of(FakeBufferAgent.listedBuffer("held", "vp100", CAPACITY_500, 42)),
                        List.of(FakeBufferAgent.listedRxVport("vp100")));
        List<BufferEvent> changes = manager.reconcile(S1);
        assertEquals(List.of(BufferEvent.Type.BUFFER_ADOPTED),
                     changes.stream().map(BufferEvent::type).collect(Collectors.toList()));
        Buffer adopted = changes.get(0).subject();
        assertEquals(BufferState.BUFFERING, adopted.state());
        assertEquals(42, adopted.occupancyPackets());
        assertEquals(500, adopted.spec().capacityPackets());
        assertTrue("adopting changes nothing on the agent", agent.applied.isEmpty());
        // The adopted buffer takes its vport: a new buffer gets the other one.
        assertEquals(VportId.vportId("vp101"),
                     manager.createBuffer(S1, B1, "app", SPEC, BufferState.FREE).vport());
    }

    @Test
    public void aRestartedAgentGetsItsBuffersBackInTheirStates() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.FORWARDING);
        agent.applied.clear();
        agent.setListed(List.of(), List.of());
        List<BufferEvent> changes = manager.reconcile(S1);
        assertEquals(BufferEvent.Type.BUFFER_RECREATED, changes.get(0).type());
        assertEquals(List.of(Operation.OpCase.CREATE_BUFFER, Operation.OpCase.CREATE_VPORT,
                             Operation.OpCase.BIND), opCases());
        assertEquals(org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_RX_TX,
                     agent.applied.get(1).getCreateVport().getConfig().getMode());
        assertEquals(BufferState.FORWARDING, manager.getBuffer(S1, B1).orElseThrow().state());
    }

    @Test
    public void anAgentThatReattachedABufferAfterACrashIsReportedOnceWithItsLoss() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        agent.applied.clear();
        org.flowbuf.proto.buffer.v1.Buffer listed =
                FakeBufferAgent.listedBuffer("b1", "vp100", CAPACITY_500, 40);
        listed = listed.toBuilder().setStats(listed.getStats().toBuilder().setReattached(true)
                .setReattachedPackets(40).setMissedWhileDown(3)).build();
        agent.setListed(List.of(listed), List.of(FakeBufferAgent.listedRxVport("vp100")));
        List<BufferEvent> changes = manager.reconcile(S1);
        assertEquals(List.of(BufferEvent.Type.BUFFER_REATTACHED),
                     changes.stream().map(BufferEvent::type).collect(Collectors.toList()));
        assertEquals(40, changes.get(0).reattachedPackets());
        assertEquals(3, changes.get(0).lostPackets());
        assertEquals(40, changes.get(0).subject().occupancyPackets());
        assertTrue("re-attaching creates nothing on the agent", agent.applied.isEmpty());
        assertTrue("reported once", manager.reconcile(S1).isEmpty());
    }

    @Test
    public void reconcilingAnAgentThatMatchesChangesNothing() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        agent.applied.clear();
        agent.setListed(List.of(FakeBufferAgent.listedBuffer("b1", "vp100", CAPACITY_500, 3)),
                        List.of(FakeBufferAgent.listedRxVport("vp100")));
        assertTrue(manager.reconcile(S1).isEmpty());
        assertTrue(agent.applied.isEmpty());
    }

    // b1 is the trigger, b2 the buffer it moves; both BUFFERING, calls cleared.
    private void armB1ToForwardB2() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        manager.createBuffer(S1, B2, "app", SPEC, BufferState.BUFFERING);
        agent.calls.clear();
        agent.applied.clear();
        manager.armMove(S1, B1, B2, "app", BufferState.FORWARDING, false);
    }

    @Test
    public void aFiredMoveIsLearntAtTheDisarmAndTheConfirmingMoveSendsNothing() {
        List<String> seen = new ArrayList<>();
        armB1ToForwardB2();
        manager.setEventSink(e -> seen.add(e.type() + " " + e.subject().id()));
        assertEquals(List.of("ArmTrigger org.flowbuf.test b1 1"), agent.calls);
        assertTrue(manager.getStatistics(S1, B1).orElseThrow().triggerArmed());
        assertTrue(agent.packetInto("b1"));
        BufferStatistics trigger = manager.getStatistics(S1, B1).orElseThrow();
        assertFalse(trigger.triggerArmed());
        assertEquals(1, trigger.triggersFired());
        assertEquals("vp101 VPORT_MODE_RX_TX", modeSet(agent.applied.get(0)));
        assertEquals("it had fired",
                     Disarmed.fired(TriggerFire.of(true, TriggerFire.ReportSync.NONE, 0)),
                     manager.disarm(S1, B1, "app"));
        assertEquals(BufferState.FORWARDING, manager.getBuffer(S1, B2).get().state());
        assertEquals(List.of("BUFFER_STATE_CHANGED b2"), seen);
        agent.calls.clear();
        manager.moveBuffer(S1, B2, "app", BufferState.FORWARDING);
        assertEquals(List.of(), agent.calls);
    }

    @Test
    public void aMoveArmedToPurgeAsksTheAgentAndTheDisarmSaysWhatTheFirePurged() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        manager.createBuffer(S1, B2, "app", SPEC, BufferState.BUFFERING);
        agent.calls.clear();
        manager.armMove(S1, B1, B2, "app", BufferState.FORWARDING, true);
        assertEquals(List.of("ArmTrigger org.flowbuf.test b1 1 purging b2"), agent.calls);
        agent.packetInto("b1", org.flowbuf.proto.buffer.v1.TriggerFire.newBuilder()
                .setModesSet(true).setReportSync(ReportSync.REPORT_SYNC_SYNCED)
                .setPurgedPackets(42).build());
        assertEquals(Disarmed.fired(TriggerFire.of(true, TriggerFire.ReportSync.SYNCED, 42)),
                     manager.disarm(S1, B1, "app"));
        assertEquals(BufferState.FORWARDING, manager.getBuffer(S1, B2).get().state());
    }

    @Test
    public void aFireThatMovedNothingIsReportedAndNotLearnt() {
        armB1ToForwardB2();
        agent.packetInto("b1", org.flowbuf.proto.buffer.v1.TriggerFire.newBuilder()
                .setModesSet(false).build());
        assertEquals(Disarmed.fired(TriggerFire.of(false, TriggerFire.ReportSync.NONE, 0)),
                     manager.disarm(S1, B1, "app"));
        assertEquals("the store keeps what the agent kept", BufferState.BUFFERING,
                     manager.getBuffer(S1, B2).get().state());
    }

    @Test
    public void aBufferTheAgentLostIsSaidSoInsteadOfAStaleFigure() {
        manager.createBuffer(S1, B1, "app", BufferSpec.defaults(), BufferState.BUFFERING);
        // Lost for good: the query, and its second look once no change is in flight.
        agent.failNext("QueryBuffer", Status.NOT_FOUND.withDescription("no buffer b1"));
        agent.failNext("QueryBuffer", Status.NOT_FOUND.withDescription("no buffer b1"));
        try {
            manager.getBuffer(S1, B1);
            fail("a buffer the agent no longer has was answered from the store");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("no longer has buffer b1")
                    && e.getMessage().contains("reconcile"));
        }
        assertEquals("the next query asks again", BufferState.BUFFERING,
                     manager.getBuffer(S1, B1).get().state());
    }

    /** A store whose listing can be held as it was, as a query's is while a removal runs. */
    private static final class HeldListing implements BufferStore {
        private final InMemoryBufferStore store = new InMemoryBufferStore();
        private Collection<Buffer> held;

        void hold(DeviceId deviceId) {
            held = List.copyOf(store.buffers(deviceId));
        }

        @Override
        public void put(Buffer buffer) {
            store.put(buffer);
        }

        @Override
        public Optional<Buffer> get(DeviceId deviceId, BufferId id) {
            return store.get(deviceId, id);
        }

        @Override
        public void remove(DeviceId deviceId, BufferId id) {
            store.remove(deviceId, id);
        }

        @Override
        public Optional<BufferId> boundTo(DeviceId deviceId, VportId vport) {
            return store.boundTo(deviceId, vport);
        }

        @Override
        public Collection<Buffer> buffers(DeviceId deviceId) {
            return held != null ? held : store.buffers(deviceId);
        }
    }

    @Test
    public void aRemovalThatRacesAListingIsNotALostBuffer() throws Exception {
        HeldListing store = new HeldListing();
        manager = new BufferManager(new OneDeviceAgents(S1, InProcessAgent.start(grpc, agent, "s1b"),
                                                        OneDeviceAgents.twoVports()), store);
        manager.createBuffer(S1, B2, "app", BufferSpec.defaults(), BufferState.BUFFERING);
        store.hold(S1);  // the listing sees b2 ...
        manager.removeBuffer(S1, B2, "app", false);  // ... which goes before the agent is asked
        agent.failNext("QueryBuffer", Status.NOT_FOUND.withDescription("no buffer b2"));
        assertEquals(List.of(), List.copyOf(manager.getBuffers(S1)));
    }

    @Test
    public void aQueryRacingAChangeLooksAgainOnceTheChangeIsDone() {
        manager.createBuffer(S1, B1, "app", BufferSpec.defaults(), BufferState.BUFFERING);
        agent.setOccupancy(5);
        // The first answer came while a change ran on the agent; the second
        // look, with no change in flight, finds the buffer.
        agent.failNext("QueryBuffer", Status.NOT_FOUND.withDescription("no buffer b1"));
        assertEquals(5, manager.getBuffer(S1, B1).orElseThrow().occupancyPackets());
    }

    @Test
    public void aTriggerTheAgentLostIsNothingArmedAndNotAMove() {
        armB1ToForwardB2();
        agent.restart();
        assertEquals(Disarmed.nothingArmed(), manager.disarm(S1, B1, "app"));
        assertEquals(BufferState.BUFFERING, manager.getBuffer(S1, B2).get().state());
        assertEquals("a move still armed is stopped", Disarmed.stillArmed(),
                     disarmAfterArming());
    }

    private Disarmed disarmAfterArming() {
        manager.armMove(S1, B1, B2, "app", BufferState.FORWARDING, false);
        return manager.disarm(S1, B1, "app");
    }

    private static String modeSet(Operation op) {
        return op.getSetVportMode().getVportId() + " " + op.getSetVportMode().getMode();
    }

    @Test
    public void anExplicitMoveDisarmsFirstSoALatePacketChangesNothing() {
        armB1ToForwardB2();
        agent.calls.clear();
        manager.moveBuffer(S1, B2, "app", BufferState.BUFFERING);
        assertEquals(List.of("ArmTrigger org.flowbuf.test b1 0"), agent.calls);
        assertFalse(agent.packetInto("b1"));
        assertEquals(BufferState.BUFFERING, manager.getBuffer(S1, B2).get().state());
    }

    @Test
    public void anExplicitMoveAfterAFireStillSetsTheMode() {
        armB1ToForwardB2();
        agent.packetInto("b1");
        agent.calls.clear();
        agent.applied.clear();
        manager.moveBuffer(S1, B2, "app", BufferState.BUFFERING);
        // The store said BUFFERING, the agent forwards: the move is sent, not skipped.
        assertEquals(List.of("ArmTrigger org.flowbuf.test b1 0", "SetVportMode org.flowbuf.test"),
                     agent.calls);
        assertEquals("vp101 VPORT_MODE_RX", modeSet(agent.applied.get(0)));
    }

    @Test
    public void removingEitherBufferEndsTheArmedMove() {
        armB1ToForwardB2();
        manager.removeBuffer(S1, B2, "app", true);
        assertFalse("removing the moved buffer disarmed first", agent.packetInto("b1"));
        armB1ToForwardB2WithB2Back();
        manager.removeBuffer(S1, B1, "app", true);
        agent.calls.clear();
        manager.moveBuffer(S1, B2, "app", BufferState.FORWARDING);
        assertEquals("no disarm of a removed trigger", List.of("SetVportMode org.flowbuf.test"),
                     agent.calls);
    }

    private void armB1ToForwardB2WithB2Back() {
        manager.createBuffer(S1, B2, "app", SPEC, BufferState.BUFFERING);
        manager.armMove(S1, B1, B2, "app", BufferState.FORWARDING, false);
    }

    @Test
    public void badArmsAreRefusedAndArmNothing() {
        manager.createBuffer(S1, B1, "app", SPEC, BufferState.BUFFERING);
        manager.createBuffer(S1, B2, "app", SPEC, BufferState.BUFFERING);
        agent.calls.clear();
        assertReason(() -> manager.armMove(S1, B1, B2, "app", BufferState.SERVING, false),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> manager.armMove(S1, B1, B1, "app", BufferState.FORWARDING, false),
                     FlowBufException.Reason.INVALID);
        assertReason(() -> manager.armMove(S1, BufferId.bufferId("b9"), B2, "app",
                                           BufferState.FORWARDING, false),
                     FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> manager.armMove(S1, B1, B2, "intruder", BufferState.FORWARDING, false),
                     FlowBufException.Reason.FORBIDDEN);
        assertReason(() -> manager.disarm(S1, B1, "intruder"), FlowBufException.Reason.FORBIDDEN);
        assertEquals("refused before the agent", List.of(), agent.calls);
        agent.failNext("ArmTrigger", Status.NOT_FOUND.withDescription("vport gone"));
        assertReason(() -> manager.armMove(S1, B1, B2, "app", BufferState.FORWARDING, false),
                     FlowBufException.Reason.NOT_FOUND);
        agent.calls.clear();
        manager.moveBuffer(S1, B2, "app", BufferState.FORWARDING);
        assertEquals("nothing was armed to disarm", List.of("SetVportMode org.flowbuf.test"),
                     agent.calls);
    }
}
