/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.app.upf.MeterCell;
import org.flowbuf.app.upf.UpfWrite;
import org.flowbuf.app.upf.UpfWriter;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.PiEntryEncoder;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.MeterConfig;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the UPF's entries and meter cells straight to the switches over
 * P4Runtime: the removals in one Write, then the inserts and meter cells
 * in one Write (a batch of sessions is one Write). When the second Write is
 * refused, what it applied is taken back, so the switch keeps its state.
 */
final class P4RuntimeUpfWriter implements UpfWriter {

    private final Map<DeviceId, SwitchSession> switches;

    P4RuntimeUpfWriter(Map<DeviceId, SwitchSession> switches) {
        this.switches = Map.copyOf(switches);
    }

    @Override
    public void write(DeviceId deviceId, UpfWrite write) {
        SwitchSession session = session(deviceId);
        List<Update> removes = new ArrayList<>();
        List<Update> applies = new ArrayList<>();
        encode(session.encoder(), write, removes, applies);
        TwoStepWrite.write(session, removes, applies, P4RuntimeUpfWriter::undoOf);
    }

    @Override
    public void rewrite(DeviceId deviceId, UpfWrite write) {
        SwitchSession session = session(deviceId);
        List<Update> applies = new ArrayList<>();
        encode(session.encoder(), write, new ArrayList<>(), applies);
        try {
            session.client().write(applies);
        } catch (P4RuntimeWriteException e) {
            if (e.failedUpdates().isEmpty()) {
                throw P4RuntimeSteeringWriter.refused(deviceId, e);
            }
            // What the switch kept is brought up to date; anything else is a refusal.
            List<Update> existing = new ArrayList<>();
            List<Integer> failed = e.failedUpdates().get();
            for (int k = 0; k < failed.size(); k++) {
                if (!e.updateErrors().get(k).startsWith(Status.Code.ALREADY_EXISTS.name())) {
                    throw P4RuntimeSteeringWriter.refused(deviceId, e);
                }
                existing.add(applies.get(failed.get(k)).toBuilder().setType(Update.Type.MODIFY)
                                     .build());
            }
            try {
                session.client().write(existing);
            } catch (P4RuntimeWriteException again) {
                throw P4RuntimeSteeringWriter.refused(deviceId, again);
            }
        }
    }

    private static void encode(PiEntryEncoder encoder, UpfWrite write, List<Update> removes,
                               List<Update> applies) {
        try {
            for (FlowRule rule : write.removes()) {
                removes.add(update(Update.Type.DELETE,
                                   Entity.newBuilder().setTableEntry(encoder.encode(rule))));
            }
            for (FlowRule rule : write.inserts()) {
                applies.add(update(Update.Type.INSERT,
                                   Entity.newBuilder().setTableEntry(encoder.encode(rule))));
            }
            for (MeterCell cell : write.meters()) {
                applies.add(update(Update.Type.MODIFY, Entity.newBuilder().setMeterEntry(
                        encoder.encodeMeter(cell.meterId(), cell.index(),
                                            cell.config().map(P4RuntimeUpfWriter::config)))));
            }
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("%s", e.getMessage());
        }
    }

    private static MeterConfig config(UpfMeter m) {
        return MeterConfig.newBuilder().setCir(m.cir()).setCburst(m.cburst()).setPir(m.pir())
                .setPburst(m.pburst()).build();
    }

    private static Update update(Update.Type type, Entity.Builder entity) {
        return Update.newBuilder().setType(type).setEntity(entity).build();
    }

    /** What takes an applied update back: an insert's delete, a meter cell's reset. */
    private static Optional<Update> undoOf(Update u) {
        if (u.getType() == Update.Type.INSERT) {
            return Optional.of(u.toBuilder().setType(Update.Type.DELETE).build());
        }
        Entity.Builder reset = u.getEntity().toBuilder();
        reset.getMeterEntryBuilder().clearConfig();
        return Optional.of(update(Update.Type.MODIFY, reset));
    }

    private SwitchSession session(DeviceId deviceId) {
        SwitchSession session = switches.get(deviceId);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        return session;
    }
}
