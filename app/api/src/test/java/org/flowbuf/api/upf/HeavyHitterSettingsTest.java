/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The threshold the switch takes, and the settings it could not use.
 */
public class HeavyHitterSettingsTest {

    @Test
    public void theThresholdIsTheMeanGapInEighthsOfAMicrosecond() {
        // 1500-byte packets at 2 Mbit/s: one every 6000 µs.
        HeavyHitterSettings paper = HeavyHitterSettings.of(true, 2_000_000, 1500, 1000);
        assertEquals(6000.0, paper.meanGapUs(), 1e-9);
        assertEquals(48_000, paper.thresholdEighthsUs());
        assertEquals(1_000_000, paper.idleUs());
        // 64-byte packets at 1 Gbit/s: 0.512 µs, 4.096 eighths, floored.
        assertEquals(4, HeavyHitterSettings.of(true, 1_000_000_000, 64, 1).thresholdEighthsUs());
    }

    @Test
    public void theDefaultsAreOffAtThePapersThreshold() {
        HeavyHitterSettings d = HeavyHitterSettings.defaults();
        assertFalse(d.enabled());
        assertEquals(2_000_000, d.rateBps());
        assertEquals(d, HeavyHitterSettings.of(false, 2_000_000, 1500, 1000));
    }

    @Test
    public void valuesOutOfRangeAreRefusedNamingTheField() {
        Object[][] bad = {
            {999L, 1500L, 1000L, "rateBps"},
            {100_000_000_001L, 1500L, 1000L, "rateBps"},
            {2_000_000L, 63L, 1000L, "packetBytes"},
            {2_000_000L, 9217L, 1000L, "packetBytes"},
            {2_000_000L, 1500L, 0L, "idleMs"},
            {2_000_000L, 1500L, 3_600_001L, "idleMs"},
            // 64 B at 100 Gbit/s: a packet every 0.005 µs, under 1/8 µs.
            {100_000_000_000L, 64L, 1000L, "resolution"},
            // 1500 B at 2 Mbit/s is every 6 ms: not under a 5 ms idle time.
            {2_000_000L, 1500L, 5L, "idleMs 5"},
            {2_000_000L, 1500L, 6L, "idleMs 6"},
        };
        for (Object[] b : bad) {
            FlowBufException e = refusal((long) b[0], (long) b[1], (long) b[2]);
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage() + " should name " + b[3],
                       e.getMessage().contains((String) b[3]));
        }
        // A gap under the idle time is fine.
        assertEquals(48_000, HeavyHitterSettings.of(true, 2_000_000, 1500, 7).thresholdEighthsUs());
    }

    @Test
    public void theMinimumObservationIsTheWindowAndTheBytesOfTheRateInIt() {
        HeavyHitterSettings s = HeavyHitterSettings.of(true, 2_000_000, 1400, 500, 300);
        assertEquals(300, s.minObserveMs());
        assertEquals(300_000, s.minObserveUs());
        // 2 Mbit/s for 300 ms: 75,000 bytes.
        assertEquals(75_000, s.minWindowBytes());
        assertEquals("the threshold is the same", 44_800, s.thresholdEighthsUs());
        // The largest: 100 Gbit/s for a minute, within 48 bits.
        long most = HeavyHitterSettings.of(true, 100_000_000_000L, 9216, 3_600_000, 60_000)
                .minWindowBytes();
        assertEquals(750_000_000_000L, most);
        assertTrue(most < 1L << 48);
        // Left out, or 0: none, as before.
        assertEquals(0, HeavyHitterSettings.of(true, 2_000_000, 1400, 500).minObserveMs());
        assertEquals(0, HeavyHitterSettings.defaults().minWindowBytes());
        assertEquals(HeavyHitterSettings.of(true, 2_000_000, 1400, 500),
                     HeavyHitterSettings.of(true, 2_000_000, 1400, 500, 0));
        assertFalse(s.equals(HeavyHitterSettings.of(true, 2_000_000, 1400, 500, 301)));
        assertTrue(s.toString(), s.toString().contains("observed 300 ms first"));
    }

    @Test
    public void aMinimumObservationOutOfRangeIsRefusedNamingIt() {
        for (long bad : new long[] {-1, 60_001, Long.MAX_VALUE}) {
            try {
                HeavyHitterSettings.of(true, 2_000_000, 1500, 1000, bad);
                fail("taken: minObserveMs " + bad);
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
                assertTrue(e.getMessage(), e.getMessage().contains("\"minObserveMs\" must be "
                        + "0..60000 ms, got " + bad));
            }
        }
    }

    private static FlowBufException refusal(long rateBps, long packetBytes, long idleMs) {
        try {
            HeavyHitterSettings.of(true, rateBps, packetBytes, idleMs);
        } catch (FlowBufException e) {
            return e;
        }
        fail("taken: " + rateBps + " bit/s, " + packetBytes + " B, " + idleMs + " ms");
        return null;
    }
}
