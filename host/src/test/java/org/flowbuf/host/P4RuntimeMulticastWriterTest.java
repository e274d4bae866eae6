/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import p4.config.v1.P4InfoOuterClass;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Error;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * The Writes the host sends for multicast groups (PRE entries: INSERT when
 * new, MODIFY when written before, DELETE) and for steering rules that
 * target a group, against a P4Runtime server that records them and answers
 * as scripted.
 */
public class P4RuntimeMulticastWriterTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:sa");
    private static final long P4_DEVICE_ID = 3;
    private static final List<PortNumber> PORTS =
            List.of(PortNumber.portNumber(2), PortNumber.portNumber(3));

    /** Records every Write; answers OK unless a canonical code is queued. */
    private static final class RecordingP4Runtime extends P4RuntimeGrpc.P4RuntimeImplBase {
        private final List<WriteRequest> writes = new CopyOnWriteArrayList<>();
        private final Deque<Status.Code> answers = new ArrayDeque<>();

        @Override
        public void write(WriteRequest request, StreamObserver<WriteResponse> response) {
            writes.add(request);
            Status.Code code;
            synchronized (answers) {
                code = answers.isEmpty() ? Status.Code.OK : answers.removeFirst();
            }
            if (code == Status.Code.OK) {
                response.onNext(WriteResponse.getDefaultInstance());
                response.onCompleted();
                return;
            }
            // As P4Runtime targets answer: UNKNOWN with one p4.v1.Error per update.
            com.google.rpc.Status.Builder status = com.google.rpc.Status.newBuilder()
                    .setCode(Status.Code.UNKNOWN.value()).setMessage("write failed");
            for (int i = 0; i < request.getUpdatesCount(); i++) {
                status.addDetails(Any.pack(Error.newBuilder().setCanonicalCode(code.value())
                                                   .setMessage("scripted " + code).build()));
            }
            response.onError(StatusProto.toStatusRuntimeException(status.build()));
        }

        void answer(Status.Code... codes) {
            synchronized (answers) {
                answers.addAll(List.of(codes));
            }
        }

        List<Update.Type> types() {
            List<Update.Type> types = new ArrayList<>();
            writes.forEach(w -> w.getUpdatesList().forEach(u -> types.add(u.getType())));
            return types;
        }

        Update last() {
            WriteRequest w = writes.get(writes.size() - 1);
            assertEquals(1, w.getUpdatesCount());
            return w.getUpdates(0);
        }
    }

    private final RecordingP4Runtime target = new RecordingP4Runtime();
    private Server server;
    private P4InfoIndex p4info;
    private Map<DeviceId, SwitchSession> switches;
    private P4RuntimeMulticastWriter writer;

    @Before
    public void startTarget() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(target)
                .build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        p4info = P4InfoIndex.read(Paths.get("..", "pipeconf", "p4src", "build", "p4info.txt"));
        P4RuntimeClient client = new P4RuntimeClient(channel, P4_DEVICE_ID, 10,
                                                     Duration.ofSeconds(5));
        switches = new LinkedHashMap<>();
        switches.put(DEVICE, new SwitchSession(DEVICE, channel, client, p4info));
        writer = new P4RuntimeMulticastWriter(switches);
    }

    @After
    public void stopTarget() {
        switches.values().forEach(SwitchSession::close);
        server.shutdownNow();
    }

    private static MulticastGroupEntry group(Update update) {
        return update.getEntity().getPacketReplicationEngineEntry().getMulticastGroupEntry();
    }

    private static Replica replica(int port) {
        return Replica.newBuilder().setEgressPort(port).setInstance(0).build();
    }

    @Test
    public void aNewGroupIsInsertedWithOneReplicaPerPort() {
        writer.write(DEVICE, 7, PORTS);
        WriteRequest w = target.writes.get(0);
        assertEquals(P4_DEVICE_ID, w.getDeviceId());
        assertEquals(10, w.getElectionId().getLow());
        assertEquals(Update.Type.INSERT, target.last().getType());
        MulticastGroupEntry g = group(target.last());
        assertEquals(7, g.getMulticastGroupId());
        assertEquals(List.of(replica(2), replica(3)), g.getReplicasList());
    }

    @Test
    public void aGroupWrittenBeforeIsModifiedAndARemovedOneInsertedAgain() {
        writer.write(DEVICE, 7, PORTS);
        writer.write(DEVICE, 7, List.of(PortNumber.portNumber(4)));
        assertEquals(List.of(replica(4)), group(target.last()).getReplicasList());
        writer.write(DEVICE, 8, PORTS);
        writer.remove(DEVICE, 7);
        assertEquals(7, group(target.last()).getMulticastGroupId());
        writer.write(DEVICE, 7, PORTS);
        assertEquals(List.of(Update.Type.INSERT, Update.Type.MODIFY, Update.Type.INSERT,
                             Update.Type.DELETE, Update.Type.INSERT), target.types());
    }

    @Test
    public void groupsTheSwitchAlreadyHasOrLostAreWrittenAnyway() {
        // A restarted host: the switch kept the group it does not know of.
        target.answer(Status.Code.ALREADY_EXISTS);
        writer.write(DEVICE, 7, PORTS);
        // A restarted switch: the group the host wrote is gone.
        target.answer(Status.Code.NOT_FOUND);
        writer.write(DEVICE, 7, PORTS);
        assertEquals(List.of(Update.Type.INSERT, Update.Type.MODIFY,
                             Update.Type.MODIFY, Update.Type.INSERT), target.types());
        target.answer(Status.Code.NOT_FOUND);
        writer.remove(DEVICE, 7);
        writer.remove(DEVICE, 9);
        assertEquals(Update.Type.DELETE, target.last().getType());
    }

    @Test
    public void aRestoreWritesAgainEveryGroupNotRemoved() {
        writer.write(DEVICE, 7, PORTS);
        writer.write(DEVICE, 7, List.of(PortNumber.portNumber(4)));
        writer.write(DEVICE, 8, PORTS);
        writer.write(DEVICE, 9, PORTS);
        writer.remove(DEVICE, 8);
        target.answer(Status.Code.INVALID_ARGUMENT);
        assertReason(FlowBufException.Reason.INVALID, () -> writer.write(DEVICE, 10, PORTS));
        target.writes.clear();

        // A restarted switch lost 7 and 9; one it kept (ALREADY_EXISTS) is modified.
        target.answer(Status.Code.OK, Status.Code.ALREADY_EXISTS);
        assertEquals(2, writer.restore(DEVICE));
        assertEquals(List.of(Update.Type.INSERT, Update.Type.INSERT, Update.Type.MODIFY),
                     target.types());
        Map<Integer, List<Replica>> restored = new LinkedHashMap<>();
        target.writes.forEach(w -> restored.put(group(w.getUpdates(0)).getMulticastGroupId(),
                                                group(w.getUpdates(0)).getReplicasList()));
        assertEquals("the latest ports of each group, none removed or refused",
                     Map.of(7, List.of(replica(4)), 9, List.of(replica(2), replica(3))),
                     restored);
        assertEquals("a device nothing was written to", 0,
                     new P4RuntimeMulticastWriter(switches).restore(DEVICE));
        assertReason(FlowBufException.Reason.NOT_FOUND,
                     () -> writer.restore(DeviceId.deviceId("device:nope")));
    }

    private static void assertReason(FlowBufException.Reason reason, Runnable call) {
        try {
            call.run();
            fail("expected " + reason);
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), reason, e.reason());
        }
    }

    @Test
    public void refusalsAreMappedToReasons() {
        target.answer(Status.Code.INVALID_ARGUMENT);
        assertReason(FlowBufException.Reason.INVALID, () -> writer.write(DEVICE, 7, PORTS));
        target.answer(Status.Code.RESOURCE_EXHAUSTED);
        assertReason(FlowBufException.Reason.EXHAUSTED, () -> writer.write(DEVICE, 7, PORTS));
        target.answer(Status.Code.ALREADY_EXISTS, Status.Code.UNAVAILABLE);
        assertReason(FlowBufException.Reason.UNAVAILABLE, () -> writer.write(DEVICE, 7, PORTS));
        target.answer(Status.Code.UNAVAILABLE);
        assertReason(FlowBufException.Reason.UNAVAILABLE, () -> writer.remove(DEVICE, 7));
        assertEquals("a refused group is not taken as written", Update.Type.INSERT,
                     insertOrModifyNext());
    }

    private Update.Type insertOrModifyNext() {
        writer.write(DEVICE, 7, PORTS);
        return target.last().getType();
    }

    @Test
    public void badGroupsAreInvalidAndNothingIsSent() {
        List<PortNumber> one = List.of(PortNumber.portNumber(1));
        Map<String, Runnable> bad = new LinkedHashMap<>();
        bad.put("group 0", () -> writer.write(DEVICE, 0, one));
        bad.put("group 65536", () -> writer.write(DEVICE, 65536, one));
        bad.put("no ports", () -> writer.write(DEVICE, 1, List.of()));
        bad.put("controller port", () -> writer.write(DEVICE, 1, List.of(PortNumber.CONTROLLER)));
        bad.put("port 0", () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(0))));
        bad.put("port 512", () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(512))));
        bad.put("repeated port", () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(2),
                                                                      PortNumber.portNumber(2))));
        bad.put("remove group 0", () -> writer.remove(DEVICE, 0));
        bad.put("remove group -1", () -> writer.remove(DEVICE, -1));
        bad.forEach((what, call) -> {
            try {
                call.run();
                fail(what + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(what, FlowBufException.Reason.INVALID, e.reason());
            }
        });
        assertReason(FlowBufException.Reason.NOT_FOUND,
                     () -> writer.write(DeviceId.deviceId("device:nope"), 1, one));
        assertReason(FlowBufException.Reason.NOT_FOUND,
                     () -> writer.remove(DeviceId.deviceId("device:nope"), 1));
        assertEquals(List.of(), target.writes);
    }

    @Test
    public void aSteeringRuleToAGroupIsEncodedWithItsGroupId() {
        P4RuntimeSteeringWriter steering = new P4RuntimeSteeringWriter(
                new DefaultApplicationId(1, "org.flowbuf.app"), switches);
        steering.install(DEVICE, SteeringRule.toMulticastGroup(
                FlowFilter.builder().ipProto(17).build(), 1L, 65535, 300));
        steering.modify(DEVICE, SteeringRule.toMulticastGroup(
                FlowFilter.builder().ipProto(17).build(), 1L, 5, 300));
        P4InfoOuterClass.Action expected =
                p4info.action(FlowBufP4Names.STEER_TO_MCAST_GROUP.id());
        int paramId = p4info.param(expected, FlowBufP4Names.GROUP_ID.id()).getId();
        List<ByteString> values = new ArrayList<>();
        for (WriteRequest w : target.writes) {
            TableEntry entry = w.getUpdates(0).getEntity().getTableEntry();
            assertEquals(p4info.table(FlowBufP4Names.FLOW_STEERING.id()).getPreamble().getId(),
                         entry.getTableId());
            assertEquals(300, entry.getPriority());
            Action action = entry.getAction().getAction();
            assertEquals(expected.getPreamble().getId(), action.getActionId());
            assertEquals(1, action.getParamsCount());
            assertEquals(paramId, action.getParams(0).getParamId());
            values.add(action.getParams(0).getValue());
        }
        assertEquals("group ids in canonical bytes",
                     List.of(ByteString.copyFrom(new byte[]{(byte) 0xff, (byte) 0xff}),
                             ByteString.copyFrom(new byte[]{5})), values);
        assertEquals(List.of(Update.Type.INSERT, Update.Type.MODIFY), target.types());
    }
}
