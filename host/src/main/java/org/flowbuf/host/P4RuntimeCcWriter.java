/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.congestion.CcWrite;
import org.flowbuf.app.congestion.CcWriter;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.PiEntryEncoder;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.CcP4Names;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.RegisterEntry;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the congestion service's entries to the switches over P4Runtime:
 * the removals in one Write, then the register resets, inserts and
 * modifications in one Write. When that Write is refused, the inserts it
 * applied are deleted again.
 */
final class P4RuntimeCcWriter implements CcWriter {

    private static final P4Data ZERO = P4Data.newBuilder()
            .setBitstring(ByteString.copyFrom(new byte[]{0})).build();

    private final Map<DeviceId, SwitchSession> switches;
    private final P4InfoIndex p4info;

    P4RuntimeCcWriter(Map<DeviceId, SwitchSession> switches, P4InfoIndex p4info) {
        this.switches = Map.copyOf(switches);
        this.p4info = p4info;
    }

    @Override
    public void write(DeviceId deviceId, CcWrite write) {
        SwitchSession session = switches.get(deviceId);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        List<Update> removes = new ArrayList<>();
        List<Update> applies = new ArrayList<>();
        encode(session.encoder(), write, removes, applies);
        // Only inserts are taken back: a reset register or a modified
        // entry stays as the refused Write left it.
        TwoStepWrite.write(session, removes, applies,
                           u -> u.getType() == Update.Type.INSERT
                                   ? Optional.of(u.toBuilder().setType(Update.Type.DELETE).build())
                                   : Optional.empty());
    }

    private void encode(PiEntryEncoder encoder, CcWrite write, List<Update> removes,
                        List<Update> applies) {
        try {
            for (FlowRule r : write.removes()) {
                removes.add(table(Update.Type.DELETE, encoder, r));
            }
            for (int index : write.resets()) {
                for (String register : CcP4Names.FLOW_REGISTERS) {
                    applies.add(reset(register, index));
                }
            }
            for (FlowRule r : write.inserts()) {
                applies.add(table(Update.Type.INSERT, encoder, r));
            }
            for (FlowRule r : write.modifies()) {
                applies.add(table(Update.Type.MODIFY, encoder, r));
            }
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("%s", e.getMessage());
        }
    }

    private Update reset(String register, int index) {
        RegisterEntry cell = RegisterEntry.newBuilder().setRegisterId(p4info.registerId(register))
                .setIndex(Index.newBuilder().setIndex(index)).setData(ZERO).build();
        return Update.newBuilder().setType(Update.Type.MODIFY)
                .setEntity(Entity.newBuilder().setRegisterEntry(cell)).build();
    }

    private static Update table(Update.Type type, PiEntryEncoder encoder, FlowRule rule) {
        return Update.newBuilder().setType(type)
                .setEntity(Entity.newBuilder().setTableEntry(encoder.encode(rule))).build();
    }
}
