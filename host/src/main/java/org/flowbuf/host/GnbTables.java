/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.app.apps.gnb.GnbFlowRules;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;

/**
 * The gNodeB in a switch's P4 program, from its device's "gnb" netcfg
 * section: a clone session per cell (its BaaS port), written before the
 * ports and bearer entries, so that no downlink PDU is cloned to a
 * session that does not exist yet.
 */
final class GnbTables {

    private GnbTables() {
    }

    static void write(SwitchSession session, ApplicationId appId, GnbDeviceConfig config) {
        List<Update> sessions = new ArrayList<>();
        GnbFlowRules.cloneSessions(config).forEach((id, port) -> sessions.add(Update.newBuilder()
                .setType(Update.Type.INSERT)
                .setEntity(Entity.newBuilder().setPacketReplicationEngineEntry(
                        PacketReplicationEngineEntry.newBuilder().setCloneSessionEntry(
                                CloneSessionEntry.newBuilder().setSessionId(id).addReplicas(
                                        Replica.newBuilder().setEgressPort(port.intValue())
                                                .setInstance(1))))).build()));
        CcSwitchSetup.insertOrModify(session, sessions);
        session.insertMissing(GnbFlowRules.entries(appId, session.deviceId(), config));
    }
}
