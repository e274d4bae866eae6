/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.ProbeStats;
import org.flowbuf.api.congestion.SwitchOver;
import org.junit.Test;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

/** The probe timing and decision, on a clock the test moves. */
public class ProbeMonitorTest {

    private static final long MS = 1_000_000;
    // Every 1 s, budget 20 ms.
    private final ProbeMonitor monitor = new ProbeMonitor(1000, 20_000);

    @Test
    public void aProbeBackWithinTheBudgetMovesNothing() {
        assertEquals(ProbeMonitor.Tick.SEND, monitor.tick(0));
        long seq = monitor.send(0);
        assertEquals(Optional.empty(), monitor.back(seq, 5 * MS));
        assertEquals(ProbeMonitor.Tick.SEND, monitor.tick(1000 * MS));  // nothing out
        ProbeStats s = monitor.stats();
        assertEquals(1, s.sent());
        assertEquals(0, s.lost());
        assertEquals(0, s.late());
        assertEquals(5000, s.lastDelayUs().getAsLong());
    }

    @Test
    public void aProbeOverTheBudgetIsLate() {
        long seq = monitor.send(100 * MS);
        // 20 ms is the budget itself: in time; 1 us more: late.
        assertEquals(Optional.of(SwitchOver.Cause.PROBE_LATE),
                     monitor.back(seq, 120 * MS + 1000));
        assertEquals(1, monitor.stats().late());
        assertEquals(20_001, monitor.stats().lastDelayUs().getAsLong());
        long next = monitor.send(1100 * MS);
        assertEquals(Optional.empty(), monitor.back(next, 1120 * MS));
        assertEquals(1, monitor.stats().late());
    }

    @Test
    public void aProbeNotBackAtTheNextTickIsMissing() {
        monitor.send(0);
        assertEquals(ProbeMonitor.Tick.LOST, monitor.tick(1000 * MS));
        assertEquals(1, monitor.stats().lost());
        // Counted once: the next tick, with nothing sent since, finds nothing out.
        assertEquals(ProbeMonitor.Tick.SEND, monitor.tick(2000 * MS));
        assertFalse(monitor.stats().lastDelayUs().isPresent());
    }

    @Test
    public void aTickBeforeTheIntervalIsUpWaitsForTheProbe() {
        // A stalled timer runs two ticks back to back: the probe the first
        // one sent is not lost at the second.
        long seq = monitor.send(1000 * MS);
        assertEquals(ProbeMonitor.Tick.WAIT, monitor.tick(1001 * MS));
        assertEquals(ProbeMonitor.Tick.WAIT, monitor.tick(1999 * MS));
        assertEquals(0, monitor.stats().lost());
        assertEquals(Optional.empty(), monitor.back(seq, 1010 * MS));
        assertEquals(ProbeMonitor.Tick.SEND, monitor.tick(2000 * MS));
        monitor.send(2000 * MS);
        assertEquals(ProbeMonitor.Tick.LOST, monitor.tick(3000 * MS));
    }

    @Test
    public void aProbeBackAfterItWasCountedLostIsIgnored() {
        long seq = monitor.send(0);
        monitor.tick(1000 * MS);
        long next = monitor.send(1000 * MS);
        // The old one turns up 1.5 s late: neither late nor a delay to show.
        assertEquals(Optional.empty(), monitor.back(seq, 1500 * MS));
        assertEquals(0, monitor.stats().late());
        assertFalse(monitor.stats().lastDelayUs().isPresent());
        assertEquals(Optional.empty(), monitor.back(next, 1001 * MS));
        assertEquals(1000, monitor.stats().lastDelayUs().getAsLong());
    }

    @Test
    public void aProbeOutWhenTheFlowMovedSaysNothing() {
        long seq = monitor.send(0);
        monitor.moved();
        assertEquals(Optional.empty(), monitor.back(seq, 500 * MS));
        assertEquals(ProbeMonitor.Tick.SEND, monitor.tick(1000 * MS));
        assertEquals(0, monitor.stats().lost());
    }

    @Test
    public void aProbeBackTwiceCountsOnce() {
        long seq = monitor.send(0);
        assertEquals(Optional.of(SwitchOver.Cause.PROBE_LATE), monitor.back(seq, 30 * MS));
        assertEquals(Optional.empty(), monitor.back(seq, 31 * MS));
        assertEquals(1, monitor.stats().late());
    }
}
