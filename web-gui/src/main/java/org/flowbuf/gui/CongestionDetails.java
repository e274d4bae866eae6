/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.stream.Collectors;

/**
 * The details panel of the latency-critical flow the overlay shows: its
 * hosts, mode, paths, switch-overs and the delays of the latest.
 */
final class CongestionDetails {

    /** The overlay's glyph, which ONOS ships for disjoint paths. */
    static final String GLYPH = "m_disjointPaths";

    private CongestionDetails() {
    }

    static PropertyPanel of(LatencyCriticalFlow f) {
        PropertyPanel pp = new PropertyPanel("Latency-critical flow " + f.id(), GLYPH)
                .id("flowbuf-cc-" + f.id());
        pp.addProp("flowbuf-cc-hosts", "Hosts", f.request().srcHost() + " \u2192 "
                + f.request().dstHost());
        pp.addProp("flowbuf-cc-mode", "Mode", f.request().mode().name());
        pp.addProp("flowbuf-cc-budget", "Budget", f.request().budgetUs() + " \u00b5s");
        pp.addSeparator();
        pp.addProp("flowbuf-cc-primary", "Primary", devices(f.primary()));
        pp.addProp("flowbuf-cc-backup", "Backup", f.backup().map(CongestionDetails::devices)
                .orElse("none"));
        pp.addSeparator();
        pp.addProp("flowbuf-cc-switchovers", "Switch-overs", f.switchOverCount());
        f.lastSwitchOver().ifPresent(s -> {
            pp.addProp("flowbuf-cc-last-delays", "Last delays", String.format(
                    "queue %d \u00b5s, processing %d \u00b5s at %s", s.queueUs(), s.procUs(),
                    s.device()));
            pp.addProp("flowbuf-cc-last-time", "Last switch-over", s.time().toString());
        });
        return pp;
    }

    /**
     * A path as its switches.
     *
     * @param path path
     * @return "device:s1 → device:s2 → …"
     */
    static String devices(CcPath path) {
        return path.hops().stream().map(CcHop::device).map(Object::toString)
                .collect(Collectors.joining(" \u2192 "));
    }
}
