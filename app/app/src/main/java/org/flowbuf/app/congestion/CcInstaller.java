/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Moves the switches from one layout of a flow to another, one batch per
 * switch. The source switch is written last when the flow is installed or
 * moved (the rest of the path exists before it starts tracking the flow)
 * and first when it is removed. When a switch refuses, the switches
 * already written are taken back, so a refused change leaves nothing.
 */
final class CcInstaller {

    private static final Logger LOG = LoggerFactory.getLogger(CcInstaller.class);

    private final CcRules rules;
    private final CcWriter writer;

    CcInstaller(CcRules rules, CcWriter writer) {
        this.rules = rules;
        this.writer = writer;
    }

    /**
     * Installs a new flow.
     *
     * @param layout its layout
     */
    void install(CcLayout layout) {
        move(layout.index(), Map.of(), CcEntries.of(rules, layout), layout.source(), true);
    }

    /**
     * Moves an installed flow to a new layout.
     *
     * @param from its layout now
     * @param to   the new one
     */
    void change(CcLayout from, CcLayout to) {
        move(to.index(), CcEntries.of(rules, from), CcEntries.of(rules, to), to.source(), true);
    }

    /**
     * Removes an installed flow.
     *
     * @param layout its layout
     */
    void remove(CcLayout layout) {
        move(layout.index(), CcEntries.of(rules, layout), Map.of(), layout.source(), false);
    }

    /**
     * Writes a flow's entries on one switch that lost them all (a restart);
     * its register cells start from zero there with the flow's first packet.
     *
     * @param layout the flow's layout
     * @param device the switch
     * @return whether the flow has entries there
     */
    boolean restore(CcLayout layout, DeviceId device) {
        List<FlowRule> entries = entries(layout, device);
        CcWrite write = CcEntries.diff(Map.of(), Map.of(device, entries))
                .get(device);
        if (write == null) {
            return false;
        }
        writer.write(device, write);
        return true;
    }

    /**
     * A flow's entries on one switch.
     *
     * @param layout the flow's layout
     * @param device the switch
     * @return its entries there (none off the flow's paths)
     */
    List<FlowRule> entries(CcLayout layout, DeviceId device) {
        return CcEntries.of(rules, layout).getOrDefault(device, List.of());
    }

    private void move(int index, Map<DeviceId, List<FlowRule>> from,
                      Map<DeviceId, List<FlowRule>> to, DeviceId source, boolean sourceLast) {
        Map<DeviceId, CcWrite> writes = CcEntries.diff(from, to);
        List<DeviceId> order = new ArrayList<>(writes.keySet());
        order.remove(source);
        if (writes.containsKey(source)) {
            order.add(sourceLast ? order.size() : 0, source);
        }
        List<DeviceId> done = new ArrayList<>();
        for (DeviceId device : order) {
            try {
                writer.write(device, writes.get(device));
                done.add(device);
            } catch (FlowBufException e) {
                undo(index, from, to, done);
                throw e;
            }
        }
    }

    private void undo(int index, Map<DeviceId, List<FlowRule>> from,
                      Map<DeviceId, List<FlowRule>> to, List<DeviceId> done) {
        Map<DeviceId, CcWrite> back = CcEntries.diff(to, from);
        Collections.reverse(done);
        for (DeviceId device : done) {
            CcWrite w = back.get(device);
            if (w == null) {
                continue;
            }
            try {
                writer.write(device, w);
            } catch (FlowBufException e) {
                LOG.warn("{}: congestion entries of flow {} not taken back: {}", device, index,
                         e.getMessage());
            }
        }
    }
}
