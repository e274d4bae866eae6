/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.congestion.CcWrite;
import org.flowbuf.app.congestion.CcWriter;
import org.flowbuf.host.p4rt.PiEntryEncoder;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the congestion service's entries to the switches over P4Runtime:
 * the removals in one Write, then the inserts and modifications in one
 * Write. When that Write is refused, the inserts it applied are deleted
 * again.
 */
final class P4RuntimeCcWriter implements CcWriter {

    private final Map<DeviceId, SwitchSession> switches;

    P4RuntimeCcWriter(Map<DeviceId, SwitchSession> switches) {
        this.switches = Map.copyOf(switches);
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
        // Only inserts are taken back: a modified entry stays as the
        // refused Write left it.
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

    private static Update table(Update.Type type, PiEntryEncoder encoder, FlowRule rule) {
        return Update.newBuilder().setType(type)
                .setEntity(Entity.newBuilder().setTableEntry(encoder.encode(rule))).build();
    }
}
