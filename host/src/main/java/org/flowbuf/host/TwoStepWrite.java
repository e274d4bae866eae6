/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How the host's service writers change a switch: the removals in one
 * Write (an entry the switch no longer has, after a restart, is what a
 * removal wants), then everything else in one Write; when that one is
 * refused, what it applied is taken back, so the switch keeps its state.
 */
final class TwoStepWrite {

    private TwoStepWrite() {
    }

    /**
     * Writes removals, then applies.
     *
     * @param session  the switch
     * @param removes  DELETE updates
     * @param applies  the other updates
     * @param undoOf   the update that takes an applied one back, if any
     * @throws org.flowbuf.api.FlowBufException when the switch refuses
     */
    static void write(SwitchSession session, List<Update> removes, List<Update> applies,
                      Function<Update, Optional<Update>> undoOf) {
        DeviceId deviceId = session.deviceId();
        if (!removes.isEmpty()) {
            try {
                session.client().write(removes);
            } catch (P4RuntimeWriteException e) {
                if (!onlyCode(e, Status.Code.NOT_FOUND)) {
                    throw P4RuntimeSteeringWriter.refused(deviceId, e);
                }
            }
        }
        if (applies.isEmpty()) {
            return;
        }
        try {
            session.client().write(applies);
        } catch (P4RuntimeWriteException e) {
            undo(session, applies, e, undoOf);
            throw P4RuntimeSteeringWriter.refused(deviceId, e);
        }
    }

    /**
     * Whether every update a Write refused was refused with one code.
     *
     * @param e    the refusal
     * @param code the code
     * @return true when it names updates, all with that code
     */
    static boolean onlyCode(P4RuntimeWriteException e, Status.Code code) {
        return !e.updateErrors().isEmpty()
                && e.updateErrors().stream().allMatch(m -> m.startsWith(code.name()));
    }

    /** Takes back the updates of a refused Write that the switch applied. */
    private static void undo(SwitchSession session, List<Update> written,
                             P4RuntimeWriteException e, Function<Update, Optional<Update>> undoOf) {
        Set<Integer> notApplied = e.failedUpdates().map(Set::copyOf).orElse(Set.of());
        List<Update> undo = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            if (!notApplied.contains(i)) {
                undoOf.apply(written.get(i)).ifPresent(undo::add);
            }
        }
        if (undo.isEmpty()) {
            return;
        }
        try {
            session.client().write(undo);
        } catch (P4RuntimeWriteException notAll) {
            // Without the target's per-update answer some were never applied: expected.
            return;
        }
    }
}
