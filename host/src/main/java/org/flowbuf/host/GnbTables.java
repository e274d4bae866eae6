/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.apps.gnb.GnbTableWriter;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The gNodeB in a switch's P4 program over the host's P4Runtime sessions:
 * clone sessions (one per cell, to its BaaS port) written before the ports
 * and bearer entries, so that no downlink PDU is cloned to a session that
 * does not exist yet, and removed after them.
 */
final class GnbTables implements GnbTableWriter {

    private final Map<DeviceId, SwitchSession> switches;

    /**
     * @param switches the host's switch sessions
     */
    GnbTables(Map<DeviceId, SwitchSession> switches) {
        this.switches = switches;
    }

    @Override
    public void write(DeviceId deviceId, Map<Integer, Long> cloneSessions,
                      Collection<FlowRule> entries) {
        SwitchSession session = session(deviceId);
        try {
            if (!cloneSessions.isEmpty()) {
                CcSwitchSetup.insertOrModify(session, cloneSessionUpdates(cloneSessions));
            }
            if (!entries.isEmpty()) {
                // New entries are inserted, those the switch has get the wanted action.
                session.insertMissing(List.copyOf(entries));
                session.modify(List.copyOf(entries));
            }
        } catch (P4RuntimeWriteException e) {
            throw refused(deviceId, e);
        }
    }

    @Override
    public void remove(DeviceId deviceId, Collection<Integer> cloneSessions,
                       Collection<FlowRule> entries) {
        SwitchSession session = session(deviceId);
        try {
            if (!entries.isEmpty()) {
                lacksAreFine(() -> session.delete(List.copyOf(entries)));
            }
            if (!cloneSessions.isEmpty()) {
                List<Update> deletes = new ArrayList<>();
                cloneSessions.forEach(id -> deletes.add(Update.newBuilder()
                        .setType(Update.Type.DELETE).setEntity(cloneSession(id, 0)).build()));
                lacksAreFine(() -> session.client().write(deletes));
            }
        } catch (P4RuntimeWriteException e) {
            throw refused(deviceId, e);
        }
    }

    private SwitchSession session(DeviceId deviceId) {
        SwitchSession session = switches.get(deviceId);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        return session;
    }

    private static List<Update> cloneSessionUpdates(Map<Integer, Long> cloneSessions) {
        List<Update> updates = new ArrayList<>();
        cloneSessions.forEach((id, port) -> updates.add(Update.newBuilder()
                .setType(Update.Type.INSERT).setEntity(cloneSession(id, port)).build()));
        return updates;
    }

    private static Entity cloneSession(int id, long port) {
        CloneSessionEntry.Builder entry = CloneSessionEntry.newBuilder().setSessionId(id);
        if (port > 0) {
            entry.addReplicas(Replica.newBuilder().setEgressPort((int) port).setInstance(1));
        }
        return Entity.newBuilder().setPacketReplicationEngineEntry(
                PacketReplicationEngineEntry.newBuilder().setCloneSessionEntry(entry)).build();
    }

    // A delete of what the switch does not have (NOT_FOUND for every update) is done.
    private static void lacksAreFine(Runnable delete) {
        try {
            delete.run();
        } catch (P4RuntimeWriteException e) {
            boolean onlyMissing = !e.updateErrors().isEmpty() && e.updateErrors().stream()
                    .allMatch(m -> m.startsWith(Status.Code.NOT_FOUND.name()));
            if (!onlyMissing) {
                throw e;
            }
        }
    }

    private static FlowBufException refused(DeviceId deviceId, P4RuntimeWriteException e) {
        return new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                    deviceId + " refused the gNodeB's entries: " + e.getMessage(),
                                    e);
    }
}
