/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionModel;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.model.PiTableModel;

import java.util.stream.Collectors;

/**
 * The committed p4info as the pipeconf builds it, described the way the
 * names tests compare it: a table's keys as "name KIND bits, ...", an
 * action's parameters as "name bits, ...".
 */
final class P4Model {

    static final PiPipelineModel MODEL = FlowBufPipeconfs.build().pipelineModel();

    private P4Model() {
    }

    static PiTableModel table(PiTableId id) {
        return MODEL.table(id).orElseThrow(() -> new AssertionError(id + " is not in the p4info"));
    }

    static String keys(PiTableId id) {
        return table(id).matchFields().stream()
                .map(m -> m.id().id() + " " + m.matchType() + " " + m.bitWidth())
                .collect(Collectors.joining(", "));
    }

    static String params(PiTableId id, PiActionId action) {
        PiActionModel model = table(id).action(action)
                .orElseThrow(() -> new AssertionError(action + " is not an action of " + id));
        return model.params().stream().map(p -> p.id().id() + " " + p.bitWidth())
                .collect(Collectors.joining(", "));
    }
}
