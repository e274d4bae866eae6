/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fb;

import org.flowbuf.app.apps.fb.FbShiftPlan.Entry;
import org.junit.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertIllegal;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The shift table, worked out by hand: shift = round(log2(N_p * n / alpha)).
 */
public class FbShiftPlanTest {

    @Test
    public void alphaOneSharesByPowersOfTwo() {
        // alpha 1, n 1: N_p 1 -> 0, 2 -> 1, 3 -> round(1.58) = 2, 4 -> 2,
        // 5 -> round(2.32) = 2, 6 -> round(2.58) = 3 ... up to 8 (max).
        List<Entry> n1 = FbShiftPlan.entries(Map.of(0, 1.0), 8).stream()
                .filter(e -> e.active() == 1).collect(Collectors.toList());
        assertEquals(List.of(new Entry(0, 1, 1, 1, 0, 0), new Entry(0, 2, 2, 1, 0, 1),
                             new Entry(0, 3, 5, 1, 0, 2),
                             new Entry(0, 6, FbShiftPlan.KEY_MAX, 1, 0, 3)), n1);
    }

    @Test
    public void anAlphaAboveTheShareShiftsLeft() {
        // alpha 8, n 1: N_p 1 -> log2(1/8) = -3 (<< 3), 2 -> -2, 3 -> round(-1.42) = -1.
        List<Entry> n1 = FbShiftPlan.entries(Map.of(5, 8.0), 3).stream()
                .filter(e -> e.active() == 1).collect(Collectors.toList());
        assertEquals(List.of(new Entry(5, 1, 1, 1, 3, 0), new Entry(5, 2, 2, 1, 2, 0),
                             new Entry(5, 3, FbShiftPlan.KEY_MAX, 1, 1, 0)), n1);
    }

    @Test
    public void everyAlphaAndPortShareIsCoveredUpToTheLargestKey() {
        List<Entry> all = FbShiftPlan.entries(Map.of(0, 1.0, 1, 2.0), 64);
        for (int alpha : List.of(0, 1)) {
            for (int n = 1; n <= FbShiftPlan.QUEUES_PER_PORT; n++) {
                int a = alpha;
                int active = n;
                List<Entry> row = all.stream().filter(e -> e.alphaId() == a && e.active() == active)
                        .collect(Collectors.toList());
                assertEquals(1, row.get(0).congestedLow());
                for (int i = 1; i < row.size(); i++) {
                    assertEquals(row.get(i - 1).congestedHigh() + 1, row.get(i).congestedLow());
                }
                assertEquals(FbShiftPlan.KEY_MAX, row.get(row.size() - 1).congestedHigh());
            }
        }
        assertTrue("compressed: " + all.size(), all.size() < 2 * 8 * 12);
    }

    @Test
    public void badAlphasAreRefused() {
        assertIllegal(() -> FbShiftPlan.entries(Map.of(0, 0.0), 8));
        assertIllegal(() -> FbShiftPlan.entries(Map.of(0, Double.NaN), 8));
        assertIllegal(() -> FbShiftPlan.entries(Map.of(256, 1.0), 8));
        assertIllegal(() -> FbShiftPlan.entries(Map.of(0, 1.0), 0));
    }
}
