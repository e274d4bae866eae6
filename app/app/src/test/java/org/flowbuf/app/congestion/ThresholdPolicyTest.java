/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.Map;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.flowbuf.app.congestion.Thrown.assertThrows;
import static org.junit.Assert.assertTrue;

public class ThresholdPolicyTest {

    // Every switch: 10 µs queuing, 40 µs processing at idle; s7 (the last) 20 and 40.
    private static final IdleDelay.Source IDLE = (device, port) ->
            device.equals(sw(7)) ? new IdleDelay(20, 40) : new IdleDelay(10, 40);

    private final CcPath path = SuurballePathFinderTest.path(Topo.paper(), 1, 3, 5, 7);

    @Test
    public void aGenerousBudgetGivesXTimesTheIdleDelays() {
        Map<DeviceId, CcThresholds> t = new ThresholdPolicy(5, IDLE).derive(path, 100_000, 5, 3);
        assertEquals(new CcThresholds(50, 200, 3), t.get(sw(1)));
        assertEquals(new CcThresholds(100, 200, 3), t.get(sw(7)));
        assertEquals(4, t.size());
    }

    @Test
    public void aTightBudgetCapsEachSwitchAtItsShare() {
        // Path idle delay D = 3 * 50 + 60 = 210 µs; B = 420 µs gives each switch twice its
        // idle delays, under X = 12 times them.
        Map<DeviceId, CcThresholds> t = new ThresholdPolicy(5, IDLE).derive(path, 420, 12, 1);
        assertEquals(new CcThresholds(20, 80, 1), t.get(sw(3)));
        assertEquals(new CcThresholds(40, 80, 1), t.get(sw(7)));
        long perPacketBound = t.values().stream().mapToLong(x -> x.queueUs() + x.procUs()).sum();
        assertTrue(perPacketBound <= 420);
    }

    @Test
    public void aBudgetUnderThePathsIdleDelayIsRefused() {
        FlowBufException e = assertThrows(FlowBufException.class,
                                          () -> new ThresholdPolicy(5, IDLE).derive(path, 209, 5, 1));
        assertEquals(FlowBufException.Reason.INVALID, e.reason());
        assertTrue(e.getMessage(), e.getMessage().contains("210"));
    }

    @Test
    public void xUnderOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicy(0.5, IDLE));
    }
}
