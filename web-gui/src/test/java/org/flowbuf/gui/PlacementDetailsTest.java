/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The placement in a device's details panel: the fast path lists its placed
 * UEs (fast ones first, the hottest first), the slow path names its fast
 * path, another device and an off placement add nothing.
 */
public class PlacementDetailsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    private static HybridPlacementService service(HybridSettings settings, List<UePlacement> ues) {
        return new HybridPlacementService() {
            @Override
            public HybridSettings settings() {
                return settings;
            }

            @Override
            public void configure(HybridSettings next) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<UePlacement> placements() {
                return ues;
            }

            @Override
            public Optional<UePlacement> placement(Ip4Address ue) {
                return ues.stream().filter(u -> u.ueAddress().equals(ue)).findFirst();
            }
        };
    }

    private static UePlacement ue(String address, UePlacement.Path path, boolean moving, long bps,
                                  long promotions, long demotions) {
        return new UePlacement(Ip4Address.valueOf(address), path, moving, bps, promotions,
                               demotions, 1200);
    }

    /** key → value of the panel's properties, in order. */
    private static Map<String, String> props(PropertyPanel pp) {
        Map<String, String> out = new LinkedHashMap<>();
        pp.properties().stream().filter(p -> p.key() != null && p.key().startsWith("flowbuf"))
                .forEach(p -> out.put(p.key(), p.value()));
        return out;
    }

    private static final HybridSettings ON = HybridSettings.of(S1, S2, 3, 2, 40, 5000, 500);

    @Test
    public void theFastPathListsItsUesFastAndHottestFirst() {
        HybridPlacementService s = service(ON, List.of(
                ue("10.250.0.1", UePlacement.Path.SLOW, false, 0, 1, 1),
                ue("10.250.0.2", UePlacement.Path.FAST, false, 2_400_000, 1, 0),
                ue("10.250.0.3", UePlacement.Path.FAST, false, 9_100_000_000L, 2, 1),
                ue("10.250.0.4", UePlacement.Path.SLOW, true, 0, 0, 0)));
        PropertyPanel pp = new PropertyPanel("device:s1", "switch");
        PlacementDetails.addTo(pp, s, S1);
        Map<String, String> props = props(pp);
        assertEquals(List.of("flowbuf-hybrid", "flowbuf-hybrid-table", "flowbuf-ue-10.250.0.3",
                             "flowbuf-ue-10.250.0.2", "flowbuf-ue-10.250.0.1",
                             "flowbuf-ue-10.250.0.4"), new ArrayList<>(props.keySet()));
        assertEquals("fast path; slow path device:s2 by port 3", props.get("flowbuf-hybrid"));
        assertEquals("the moving UE holds a session too", "3 of 40 sessions",
                     props.get("flowbuf-hybrid-table"));
        assertEquals("FAST, 9.10 Gbit/s, 2 promotions, 1 demotion",
                     props.get("flowbuf-ue-10.250.0.3"));
        assertEquals("FAST, 2.40 Mbit/s, 1 promotion, 0 demotions",
                     props.get("flowbuf-ue-10.250.0.2"));
        assertEquals("SLOW, 0 bit/s, 1 promotion, 1 demotion", props.get("flowbuf-ue-10.250.0.1"));
        assertEquals("SLOW (moving), 0 bit/s, 0 promotions, 0 demotions",
                     props.get("flowbuf-ue-10.250.0.4"));
    }

    @Test
    public void aLongListIsCutWithACount() {
        List<UePlacement> many = new ArrayList<>();
        for (int i = 1; i <= PlacementDetails.MAX_ROWS + 5; i++) {
            many.add(ue("10.250.1." + i, UePlacement.Path.FAST, false, 1000L * i, 1, 0));
        }
        PropertyPanel pp = new PropertyPanel("device:s1", "switch");
        PlacementDetails.addTo(pp, service(ON, many), S1);
        Map<String, String> props = props(pp);
        assertEquals(2 + PlacementDetails.MAX_ROWS + 1, props.size());
        assertEquals("5 UEs (upf/placement lists all)", props.get("flowbuf-hybrid-more"));
        assertTrue("the hottest first", props.containsKey("flowbuf-ue-10.250.1.25"));
        assertTrue(!props.containsKey("flowbuf-ue-10.250.1.1"));
    }

    @Test
    public void theSlowPathNamesItsFastPathAndOtherDevicesGetNothing() {
        HybridPlacementService s = service(ON, List.of(
                ue("10.250.0.2", UePlacement.Path.FAST, false, 2_400_000, 1, 0)));
        PropertyPanel slow = new PropertyPanel("device:s2", "switch");
        PlacementDetails.addTo(slow, s, S2);
        assertEquals(Map.of("flowbuf-hybrid", "slow path of device:s1"), props(slow));
        PropertyPanel other = new PropertyPanel("device:s3", "switch");
        PlacementDetails.addTo(other, s, DeviceId.deviceId("device:s3"));
        assertEquals(Map.of(), props(other));
        PropertyPanel off = new PropertyPanel("device:s1", "switch");
        PlacementDetails.addTo(off, service(HybridSettings.off(), List.of()), S1);
        assertEquals(Map.of(), props(off));
    }

    @Test
    public void ratesReadAsPeopleReadThem() {
        assertEquals("999 bit/s", PlacementDetails.rate(999));
        assertEquals("1.5 kbit/s", PlacementDetails.rate(1500));
        assertEquals("1.00 Mbit/s", PlacementDetails.rate(1_000_000));
    }
}
