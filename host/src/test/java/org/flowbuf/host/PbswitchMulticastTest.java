/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeChannels;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Multicast groups and steering rules that target them, written by the
 * host's writers to a real pbswitch (bin/pbswitch, built by
 * {@code go build -o bin/ ./pbswitch/cmd/pbswitch}) and read back over
 * P4Runtime. Loopback only; no ports, no root.
 */
public class PbswitchMulticastTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:anchor");
    private static final long P4_DEVICE_ID = 1;

    private PbswitchProcess pbswitch;
    private ManagedChannel channel;
    private SwitchSession session;
    private P4InfoIndex p4info;

    @Before
    public void startPbswitch() throws Exception {
        pbswitch = PbswitchProcess.start();
        p4info = P4InfoIndex.read(PbswitchProcess.P4INFO);
        channel = P4RuntimeChannels.plaintext("127.0.0.1", pbswitch.port());
        P4RuntimeClient client = new P4RuntimeClient(channel, P4_DEVICE_ID, 10,
                                                     Duration.ofSeconds(5));
        session = new SwitchSession(DEVICE, channel, client, p4info);
        assertTrue("a fresh pbswitch gets the pipeline",
                   session.start(ByteString.copyFrom(Files.readAllBytes(PbswitchProcess.BMV2_JSON)),
                                 Duration.ofSeconds(5)));
    }

    @After
    public void stopPbswitch() throws Exception {
        if (session != null) {
            session.close();
        }
        if (pbswitch != null) {
            pbswitch.close();
        }
    }

    private List<Entity> read(Entity wildcard) {
        Iterator<ReadResponse> answers = P4RuntimeGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .read(ReadRequest.newBuilder().setDeviceId(P4_DEVICE_ID).addEntities(wildcard)
                              .build());
        List<Entity> entities = new ArrayList<>();
        answers.forEachRemaining(r -> entities.addAll(r.getEntitiesList()));
        return entities;
    }

    // Every multicast group on the switch: id -> replica ports.
    private Map<Integer, Set<Integer>> groups() {
        Entity all = Entity.newBuilder().setPacketReplicationEngineEntry(
                PacketReplicationEngineEntry.newBuilder().setMulticastGroupEntry(
                        MulticastGroupEntry.getDefaultInstance())).build();
        Map<Integer, Set<Integer>> groups = new TreeMap<>();
        for (Entity e : read(all)) {
            MulticastGroupEntry g = e.getPacketReplicationEngineEntry().getMulticastGroupEntry();
            Set<Integer> ports = new TreeSet<>();
            g.getReplicasList().forEach(r -> ports.add(r.getEgressPort()));
            groups.put(g.getMulticastGroupId(), ports);
        }
        return groups;
    }

    private static List<PortNumber> ports(long... numbers) {
        List<PortNumber> ports = new ArrayList<>();
        for (long n : numbers) {
            ports.add(PortNumber.portNumber(n));
        }
        return ports;
    }

    @Test
    public void theAnchorSteersAFlowToAMulticastGroup() {
        P4RuntimeMulticastWriter groupsWriter = new P4RuntimeMulticastWriter(Map.of(DEVICE,
                                                                                   session));
        groupsWriter.write(DEVICE, 5, ports(2, 3));
        assertEquals(Map.of(5, Set.of(2, 3)), groups());

        P4RuntimeSteeringWriter steering = new P4RuntimeSteeringWriter(
                new DefaultApplicationId(1, "org.flowbuf.app"), Map.of(DEVICE, session));
        FlowFilter downlink = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32"))
                .ipProto(17).build();
        steering.install(DEVICE, SteeringRule.toMulticastGroup(downlink, 1L, 5, 300));
        int table = p4info.table(FlowBufP4Names.FLOW_STEERING.id()).getPreamble().getId();
        List<Entity> entries = read(Entity.newBuilder().setTableEntry(
                TableEntry.newBuilder().setTableId(table)).build());
        assertEquals(1, entries.size());
        Action action = entries.get(0).getTableEntry().getAction().getAction();
        assertEquals(p4info.action(FlowBufP4Names.STEER_TO_MCAST_GROUP.id()).getPreamble()
                             .getId(), action.getActionId());
        assertEquals(BigInteger.valueOf(5),
                     new BigInteger(1, action.getParams(0).getValue().toByteArray()));

        // FMM moves on: another eNB joins, one leaves (MODIFY).
        groupsWriter.write(DEVICE, 5, ports(3, 4));
        assertEquals(Map.of(5, Set.of(3, 4)), groups());

        // A restarted host does not know the switch has the group.
        new P4RuntimeMulticastWriter(Map.of(DEVICE, session)).write(DEVICE, 5, ports(4));
        assertEquals(Map.of(5, Set.of(4)), groups());

        steering.remove(DEVICE, SteeringRule.toMulticastGroup(downlink, 1L, 5, 300));
        groupsWriter.remove(DEVICE, 5);
        assertEquals(Map.of(), groups());
        groupsWriter.remove(DEVICE, 5);
        groupsWriter.write(DEVICE, 5, ports(2));
        assertEquals("a removed group is inserted again", Map.of(5, Set.of(2)), groups());
    }

    @Test
    public void badGroupsNeverReachTheSwitch() {
        P4RuntimeMulticastWriter groupsWriter = new P4RuntimeMulticastWriter(Map.of(DEVICE,
                                                                                   session));
        for (List<PortNumber> bad : List.of(ports(), ports(512), ports(2, 2))) {
            try {
                groupsWriter.write(DEVICE, 6, bad);
                fail(bad + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
            }
        }
        assertEquals(Map.of(), groups());
    }

    private List<Entity> steeringEntries() {
        int table = p4info.table(FlowBufP4Names.FLOW_STEERING.id()).getPreamble().getId();
        return read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(table))
                            .build());
    }

    @Test
    public void aRestartedSwitchGetsTheApplicationsGroupsAndRulesBack() throws Exception {
        Map<DeviceId, SwitchSession> switches = Map.of(DEVICE, session);
        P4RuntimeMulticastWriter groupsWriter = new P4RuntimeMulticastWriter(switches);
        P4RuntimeSteeringWriter steering = new P4RuntimeSteeringWriter(
                new DefaultApplicationId(1, "org.flowbuf.app"), switches);
        FlowFilter downlink = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32"))
                .ipProto(17).build();
        groupsWriter.write(DEVICE, 5, ports(2, 3));
        groupsWriter.write(DEVICE, 6, ports(4));
        groupsWriter.remove(DEVICE, 6);
        steering.install(DEVICE, SteeringRule.toMulticastGroup(downlink, 1L, 6, 300));
        steering.modify(DEVICE, SteeringRule.toMulticastGroup(downlink, 1L, 5, 300));
        SteeringRule removed = SteeringRule.toMulticastGroup(
                FlowFilter.builder().ipProto(6).build(), 1L, 5, 200);
        steering.install(DEVICE, removed);
        steering.remove(DEVICE, removed);
        List<Entity> rules = steeringEntries();
        assertEquals(1, rules.size());

        pbswitch.kill();
        pbswitch.restart();
        assertTrue("the restarted switch lost its pipeline",
                   session.start(ByteString.copyFrom(Files.readAllBytes(PbswitchProcess.BMV2_JSON)),
                                 Duration.ofSeconds(5)));
        assertEquals(Map.of(), groups());
        assertEquals(List.of(), steeringEntries());

        assertEquals(1, groupsWriter.restore(DEVICE));
        assertEquals(1, steering.restore(DEVICE));
        assertEquals("the group as last written", Map.of(5, Set.of(2, 3)), groups());
        assertEquals("the rule as last modified, not the removed one", rules, steeringEntries());
        assertEquals("a second restore keeps what the switch has", 1, steering.restore(DEVICE));
        assertEquals(1, groupsWriter.restore(DEVICE));
        assertEquals(rules, steeringEntries());
        assertEquals(Map.of(5, Set.of(2, 3)), groups());
    }
}
