/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import p4.v1.P4RuntimeOuterClass.MulticastGroupEntry;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes multicast groups straight to the switches as P4Runtime packet
 * replication engine entries (one replica per port, instance 0). Inserts a
 * group the host has not written yet and modifies one it has; returns once
 * the switch accepted the Write. Keeps each group it wrote, so that a switch
 * that restarted gets them back ({@link #restore}).
 */
public final class P4RuntimeMulticastWriter implements MulticastGroupWriter {

    private final Map<DeviceId, SwitchSession> switches;
    // Groups this host wrote, per device, by id; guarded by the map itself.
    private final Map<DeviceId, Map<Integer, PacketReplicationEngineEntry>> written =
            new ConcurrentHashMap<>();

    /**
     * Creates the writer.
     *
     * @param switches the P4Runtime session of each switch
     */
    public P4RuntimeMulticastWriter(Map<DeviceId, SwitchSession> switches) {
        this.switches = Map.copyOf(switches);
    }

    /**
     * The PRE entry of a multicast group.
     *
     * @param groupId multicast group id
     * @param ports   switch port of each replica
     * @return the entry: one replica per port, instance 0, in the given order
     */
    static PacketReplicationEngineEntry multicastGroupEntry(int groupId, List<Long> ports) {
        MulticastGroupEntry.Builder group = MulticastGroupEntry.newBuilder()
                .setMulticastGroupId(groupId);
        // ONOS 2.7's P4Runtime messages (v1.3) name a replica's port only
        // by egress_port, which pbswitch reads when the bytes port is unset.
        ports.forEach(p -> group.addReplicas(Replica.newBuilder().setEgressPort(p.intValue())
                                                     .setInstance(0)));
        return PacketReplicationEngineEntry.newBuilder().setMulticastGroupEntry(group).build();
    }

    @Override
    public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
        Objects.requireNonNull(deviceId);
        PacketReplicationEngineEntry entry =
                multicastGroupEntry(groupId, SteeringFlowRules.multicastPorts(groupId, ports));
        P4RuntimeClient client = session(deviceId).client();
        Map<Integer, PacketReplicationEngineEntry> groups = written(deviceId);
        synchronized (groups) {
            writeEither(deviceId, client, groups.containsKey(groupId) ? Update.Type.MODIFY
                                                                       : Update.Type.INSERT, entry);
            groups.put(groupId, entry);
        }
    }

    /**
     * Writes again every group this host wrote to a switch and did not
     * remove: a switch that restarted lost them, and the rules that send
     * traffic to them (FMM's anchor) would drop it.
     *
     * @param deviceId device
     * @return how many groups were written
     * @throws FlowBufException when the switch refused one
     */
    public int restore(DeviceId deviceId) {
        P4RuntimeClient client = session(deviceId).client();
        Map<Integer, PacketReplicationEngineEntry> groups = written(deviceId);
        synchronized (groups) {
            groups.values().forEach(e -> writeEither(deviceId, client, Update.Type.INSERT, e));
            return groups.size();
        }
    }

    /**
     * Writes a group with the given update type. The switch keeps its groups
     * when the host restarts (the running pipeline is kept), and loses them
     * when it restarts itself: when it answers that, the other type does
     * what was meant.
     */
    private static void writeEither(DeviceId deviceId, P4RuntimeClient client, Update.Type type,
                                    PacketReplicationEngineEntry entry) {
        try {
            client.writePre(type, List.of(entry));
        } catch (P4RuntimeWriteException e) {
            Update.Type instead = otherType(type, e.code());
            if (instead == null) {
                throw P4RuntimeSteeringWriter.refused(deviceId, e);
            }
            try {
                client.writePre(instead, List.of(entry));
            } catch (P4RuntimeWriteException again) {
                again.addSuppressed(e);
                throw P4RuntimeSteeringWriter.refused(deviceId, again);
            }
        }
    }

    @Override
    public void remove(DeviceId deviceId, int groupId) {
        Objects.requireNonNull(deviceId);
        SteeringRule.requireMulticastGroup(groupId);
        P4RuntimeClient client = session(deviceId).client();
        Map<Integer, PacketReplicationEngineEntry> groups = written(deviceId);
        synchronized (groups) {
            try {
                client.writePre(Update.Type.DELETE, List.of(multicastGroupEntry(groupId,
                                                                                List.of())));
            } catch (P4RuntimeWriteException e) {
                if (e.code() != Status.Code.NOT_FOUND) {
                    throw P4RuntimeSteeringWriter.refused(deviceId, e);
                }
            }
            groups.remove(groupId);
        }
    }

    private static Update.Type otherType(Update.Type type, Status.Code code) {
        if (type == Update.Type.INSERT && code == Status.Code.ALREADY_EXISTS) {
            return Update.Type.MODIFY;
        }
        if (type == Update.Type.MODIFY && code == Status.Code.NOT_FOUND) {
            return Update.Type.INSERT;
        }
        return null;
    }

    private Map<Integer, PacketReplicationEngineEntry> written(DeviceId deviceId) {
        return written.computeIfAbsent(deviceId, d -> new LinkedHashMap<>());
    }

    private SwitchSession session(DeviceId deviceId) {
        SwitchSession session = switches.get(deviceId);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        return session;
    }
}
