/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.app.congestion.CcDigest;
import org.flowbuf.app.congestion.CcRules;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.CcP4Names;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4RuntimeOuterClass.CloneSessionEntry;
import p4.v1.P4RuntimeOuterClass.DigestEntry;
import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.Replica;
import p4.v1.P4RuntimeOuterClass.Update;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * What congestion.p4 needs on a switch before any latency-critical flow:
 * its switch id, two clone sessions per inter-switch port (a notification
 * goes back out of the port the congested packet came in by: session
 * NOTIFY_SESSION_BASE + port; an end marker out of the port an ordered flow
 * left: MARKER_SESSION_BASE + port), and the switch-over digest subscribed.
 */
final class CcSwitchSetup {

    /** Send each digest at once, alone (a switch-over is rare and urgent). */
    private static final DigestEntry.Config DIGEST_CONFIG = DigestEntry.Config.newBuilder()
            .setMaxTimeoutNs(0).setMaxListSize(1).setAckTimeoutNs(1_000_000_000L).build();

    private CcSwitchSetup() {
    }

    /**
     * Writes the switch id, the clone sessions and the digest subscription;
     * what the switch already has is brought up to date.
     *
     * @param session   the switch
     * @param rules     rule builder
     * @param switchId  the switch's id in digests and notifications
     * @param linkPorts the switch's ports towards other switches
     * @param p4info    the pipeline's p4info
     */
    static void write(SwitchSession session, CcRules rules, int switchId,
                      Collection<Long> linkPorts, P4InfoIndex p4info) {
        // The host takes switch-overs by digest: no report by packet-in.
        session.setDefaultAction(rules.switchId(session.deviceId(), switchId, false));
        List<Update> updates = new ArrayList<>();
        for (long port : linkPorts) {
            for (int base : new int[]{CcP4Names.NOTIFY_SESSION_BASE,
                                      CcP4Names.MARKER_SESSION_BASE}) {
                CloneSessionEntry clone = CloneSessionEntry.newBuilder()
                        .setSessionId((int) (base + port))
                        .addReplicas(Replica.newBuilder().setEgressPort((int) port).setInstance(1))
                        .build();
                updates.add(update(Entity.newBuilder().setPacketReplicationEngineEntry(
                        PacketReplicationEngineEntry.newBuilder().setCloneSessionEntry(clone))));
            }
        }
        updates.add(update(Entity.newBuilder().setDigestEntry(DigestEntry.newBuilder()
                .setDigestId(p4info.digestId(CcP4Names.DIGEST)).setConfig(DIGEST_CONFIG))));
        insertOrModify(session, updates);
    }

    /**
     * Hands the switch's switch-over digests to a receiver.
     *
     * @param session  the switch
     * @param p4info   the pipeline's p4info
     * @param receiver called with each digest, on a gRPC thread
     */
    static void onSwitchOver(SwitchSession session, P4InfoIndex p4info,
                             Consumer<CcDigest> receiver) {
        int digestId = p4info.digestId(CcP4Names.DIGEST);
        session.client().onDigest(digestId, list -> decode(list).forEach(receiver));
    }

    /**
     * The digests of a DigestList of cc_digest_t (flow, switch_id, slot,
     * queue_us, proc_us).
     *
     * @param list the list
     * @return its digests; malformed entries are left out
     */
    static List<CcDigest> decode(DigestList list) {
        List<CcDigest> digests = new ArrayList<>();
        for (P4Data data : list.getDataList()) {
            List<P4Data> m = data.getStruct().getMembersList();
            if (m.size() != 5) {
                continue;
            }
            digests.add(new CcDigest((int) value(m.get(0)), (int) value(m.get(1)),
                                     (int) value(m.get(2)), value(m.get(3)), value(m.get(4))));
        }
        return digests;
    }

    private static long value(P4Data d) {
        return new BigInteger(1, d.getBitstring().toByteArray()).longValue();
    }

    private static Update update(Entity.Builder entity) {
        return Update.newBuilder().setType(Update.Type.INSERT).setEntity(entity).build();
    }

    /**
     * Inserts entities; when the switch already has every one of them
     * (ALREADY_EXISTS), modifies them instead.
     *
     * @param session the switch
     * @param updates INSERT updates
     */
    static void insertOrModify(SwitchSession session, List<Update> updates) {
        try {
            session.client().write(updates);
        } catch (P4RuntimeWriteException e) {
            boolean onlyExisting = !e.updateErrors().isEmpty() && e.updateErrors().stream()
                    .allMatch(msg -> msg.startsWith(Status.Code.ALREADY_EXISTS.name()));
            if (!onlyExisting) {
                throw e;
            }
            List<Update> modify = new ArrayList<>();
            updates.forEach(u -> modify.add(u.toBuilder().setType(Update.Type.MODIFY).build()));
            session.client().write(modify);
        }
    }
}
