/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import org.flowbuf.app.apps.fba.DtSnapshot.ClassSetting;
import org.flowbuf.app.apps.fba.DtSnapshot.QueueSample;
import org.junit.Test;

import java.util.List;
import java.util.Map;

import static org.flowbuf.app.FlowBufAssert.assertIllegal;
import static org.junit.Assert.assertEquals;

/**
 * FBA's alphas worked out by hand. Two classes: queue 0 low priority with
 * alpha 1, queue 1 high priority with alpha 2; two ports.
 */
public class FbaCalculatorTest {

    static final List<ClassSetting> CLASSES =
            List.of(new ClassSetting(1, false), new ClassSetting(2, true));

    static QueueSample q(long length) {
        return new QueueSample(length);
    }

    static DtSnapshot snapshot(List<QueueSample> port1, List<QueueSample> port2) {
        return new DtSnapshot(true, CLASSES, Map.of(1L, port1, 2L, port2));
    }

    static final DtSnapshot BEFORE = snapshot(List.of(q(0), q(0)), List.of(q(0), q(0)));
    // Port 1: both queues hold packets; port 2: empty.
    static final DtSnapshot NOW =
            snapshot(List.of(q(3000), q(1000)), List.of(q(0), q(0)));

    @Test
    public void underStrictPriorityGammaIsWhetherAHigherQueueHoldsPackets() {
        assertEquals(List.of(
                // congested, the only low one: N_p 1; queue 1 above it holds
                // packets: gamma 0, floored
                new QueueAlpha(1, 0, FbaCalculator.MIN_ALPHA),
                // congested, the only high one: N_p 1, gamma 1: 2
                new QueueAlpha(1, 1, 2.0),
                // empty, so counted with port 1's low queue: N_p 2, gamma 1
                new QueueAlpha(2, 0, 0.5),
                // empty high queue: N_p 2, gamma 1: 2 / 2
                new QueueAlpha(2, 1, 1.0)),
                     sorted(FbaCalculator.alphas(NOW)));
    }

    @Test
    public void aBurstQueueGetsItsRoundRobinShare() {
        // Issue 44: a query queue congested at the snapshot gets its
        // round-robin share (1/2 with the congested low queue), whatever
        // little of the port's bytes it sent over the period.
        DtSnapshot now = new DtSnapshot(true, true, CLASSES,
                Map.of(1L, List.of(q(10), q(10)), 2L, List.of(q(0), q(0))));
        assertEquals(List.of(
                new QueueAlpha(1, 0, 0.5),  // low, N_p 1, gamma 1/2: 1 * 1/2
                new QueueAlpha(1, 1, 1.0),  // high, N_p 1, gamma 1/2: 2 * 1/2
                new QueueAlpha(2, 0, 0.5),  // low, empty: N_p 1 + itself, gamma 1: 1/2
                new QueueAlpha(2, 1, 1.0)), // high, empty: N_p 1 + itself, gamma 1: 2/2
                     sorted(FbaCalculator.alphas(now)));
    }

    @Test
    public void underRoundRobinAnEmptyQueueGetsAnEqualShare() {
        // Port 1's low queue congested, its high queue empty. Round robin
        // gives the low queue all of port 1 while it is alone, and a packet
        // arriving at the high queue half; port 2 is empty: an arriving
        // packet's queue would have it all.
        DtSnapshot now = new DtSnapshot(true, true, CLASSES,
                Map.of(1L, List.of(q(10), q(0)), 2L, List.of(q(0), q(0))));
        assertEquals(List.of(
                new QueueAlpha(1, 0, 1.0),  // low, N_p 1, gamma 1: 1
                new QueueAlpha(1, 1, 1.0),  // high, empty: N_p 1, gamma 1/2: 2 * 1/2
                new QueueAlpha(2, 0, 0.5),  // low, empty: N_p 2, gamma 1: 1/2
                new QueueAlpha(2, 1, 2.0)), // high, empty: N_p 1, gamma 1: 2
                     sorted(FbaCalculator.alphas(now)));
    }

    @Test
    public void snapshotsWithBadShapesAreRefused() {
        assertIllegal(() -> new ClassSetting(0, false));
        assertIllegal(() -> new ClassSetting(Double.NaN, false));
        assertIllegal(() -> new DtSnapshot(true, CLASSES, Map.of(1L, List.of(q(0)))));
    }

    static List<QueueAlpha> sorted(List<QueueAlpha> alphas) {
        return alphas.stream().sorted((a, b) -> a.port() != b.port()
                ? Long.compare(a.port(), b.port()) : Integer.compare(a.queue(), b.queue()))
                .collect(java.util.stream.Collectors.toList());
    }
}
