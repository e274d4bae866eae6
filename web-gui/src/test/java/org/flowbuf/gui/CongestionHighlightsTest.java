/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.junit.Test;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.LinkHighlight;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A latency-critical flow's paths as link highlights: the primary's links
 * and the backup's in their own flavour and class, swapped by a switch-over;
 * and its details panel.
 */
public class CongestionHighlightsTest {

    private static final String S1_S2 = "device:s1/2-device:s2/1";
    private static final String S2_S4 = "device:s2/2-device:s4/1";
    private static final String S1_S3 = "device:s1/3-device:s3/1";
    private static final String S3_S4 = "device:s3/2-device:s4/2";

    /** Link id -> its CSS classes. */
    private static Map<String, String> classes(LatencyCriticalFlow flow) {
        Highlights h = new Highlights();
        CongestionHighlights.addTo(h, flow, CcFlows::egress);
        Map<String, String> css = new TreeMap<>();
        for (LinkHighlight l : h.links()) {
            css.put(l.elementId(), l.cssClasses());
        }
        return css;
    }

    @Test
    public void thePrimarysLinksAndTheBackupsGetTheirOwnClasses() {
        Map<String, String> css = classes(CcFlows.flow());
        assertEquals(List.of(S1_S2, S1_S3, S2_S4, S3_S4), List.copyOf(css.keySet()));
        for (String id : List.of(S1_S2, S2_S4)) {
            assertTrue(css.get(id), css.get(id).contains("primary"));
            assertTrue(css.get(id), css.get(id).contains("flowbuf-cc-primary"));
            assertFalse(css.get(id), css.get(id).contains("backup"));
        }
        for (String id : List.of(S1_S3, S3_S4)) {
            assertTrue(css.get(id), css.get(id).contains("secondary"));
            assertTrue(css.get(id), css.get(id).contains("flowbuf-cc-backup"));
            assertFalse(css.get(id), css.get(id).contains("flowbuf-cc-primary"));
        }
    }

    @Test
    public void aSwitchOverSwapsThem() {
        Map<String, String> css = classes(CcFlows.switchedOver(CcFlows.flow()));
        assertTrue(css.get(S1_S3), css.get(S1_S3).contains("flowbuf-cc-primary"));
        assertTrue(css.get(S3_S4), css.get(S3_S4).contains("flowbuf-cc-primary"));
        assertTrue(css.get(S1_S2), css.get(S1_S2).contains("flowbuf-cc-backup"));
        assertTrue(css.get(S2_S4), css.get(S2_S4).contains("flowbuf-cc-backup"));
        // ...and a second one swaps them back.
        Map<String, String> back = classes(CcFlows.switchedOver(
                CcFlows.switchedOver(CcFlows.flow())));
        assertEquals(classes(CcFlows.flow()), back);
    }

    @Test
    public void aFlowWithoutBackupShowsItsPathAloneAndAVanishedLinkIsLeftOut() {
        LatencyCriticalFlow flow = CcFlows.flow();
        LatencyCriticalFlow nocc = new LatencyCriticalFlow(
                flow.id(), flow.index(), flow.request(), flow.primary(), null, Map.of(), List.of());
        assertEquals(List.of(S1_S2, S2_S4), List.copyOf(classes(nocc).keySet()));
        // s2 -> s4 gone from the topology: only the link still there is drawn.
        Highlights h = new Highlights();
        CongestionHighlights.addTo(h, nocc, p -> p.deviceId().equals(CcFlows.sw("s2"))
                ? List.of() : CcFlows.egress(p));
        assertEquals(1, h.links().size());
        assertEquals(S1_S2, h.links().iterator().next().elementId());
    }

    @Test
    public void theDetailsPanelShowsPathsSwitchOversAndLastDelays() {
        PropertyPanel before = CongestionDetails.of(CcFlows.flow());
        assertEquals("Latency-critical flow 7", before.title());
        assertEquals("device:s1 \u2192 device:s2 \u2192 device:s4", value(before, "flowbuf-cc-primary"));
        assertEquals("device:s1 \u2192 device:s3 \u2192 device:s4", value(before, "flowbuf-cc-backup"));
        assertEquals("0", value(before, "flowbuf-cc-switchovers"));
        assertTrue(before.properties().stream().noneMatch(p -> p.key().equals("flowbuf-cc-last-delays")));

        PropertyPanel after = CongestionDetails.of(CcFlows.switchedOver(CcFlows.flow()));
        assertEquals("device:s1 \u2192 device:s3 \u2192 device:s4", value(after, "flowbuf-cc-primary"));
        assertEquals("device:s1 \u2192 device:s2 \u2192 device:s4", value(after, "flowbuf-cc-backup"));
        assertEquals("1", value(after, "flowbuf-cc-switchovers"));
        assertEquals("queue 912 \u00b5s, processing 41 \u00b5s at device:s1",
                     value(after, "flowbuf-cc-last-delays"));
    }

    private static String value(PropertyPanel pp, String key) {
        return pp.properties().stream().filter(p -> p.key().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key)).value();
    }
}
