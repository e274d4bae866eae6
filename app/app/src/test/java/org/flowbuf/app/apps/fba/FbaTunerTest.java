/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import org.junit.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import static org.flowbuf.app.apps.fba.FbaCalculatorTest.BEFORE;
import static org.flowbuf.app.apps.fba.FbaCalculatorTest.CLASSES;
import static org.flowbuf.app.apps.fba.FbaCalculatorTest.NOW;
import static org.flowbuf.app.apps.fba.FbaCalculatorTest.sorted;
import static org.flowbuf.app.FlowBufAssert.assertIllegal;
import static org.junit.Assert.assertEquals;

/**
 * The tuner's rounds against a scripted switch.
 */
public class FbaTunerTest {

    /** A switch that answers reads from a script and records the alphas set. */
    static final class ScriptedSwitch implements DtQueueControl {
        final Deque<Object> reads = new ArrayDeque<>();
        final List<List<QueueAlpha>> set = new ArrayList<>();

        @Override
        public DtSnapshot read() throws IOException {
            Object next = reads.removeFirst();
            if (next instanceof IOException) {
                throw (IOException) next;
            }
            return (DtSnapshot) next;
        }

        @Override
        public void setAlphas(List<QueueAlpha> alphas) {
            set.add(sorted(alphas));
        }
    }

    @Test
    public void eachRoundSetsTheAlphasOfItsSnapshot() {
        ScriptedSwitch sw = new ScriptedSwitch();
        sw.reads.add(BEFORE);
        sw.reads.add(NOW);
        try (FbaTuner tuner = new FbaTuner("s1", sw, FbaTuner.DEFAULT_PERIOD)) {
            tuner.round();
            tuner.round();
            assertEquals(List.of(sorted(FbaCalculator.alphas(BEFORE)),
                                 sorted(FbaCalculator.alphas(NOW))), sw.set);
            assertEquals(2, tuner.rounds());
            assertEquals(sw.set.get(1), sorted(tuner.lastAlphas()));
        }
    }

    @Test
    public void aSwitchNotOnDtIsLeftAloneAndAFailedReadIsCounted() {
        ScriptedSwitch sw = new ScriptedSwitch();
        sw.reads.add(new DtSnapshot(false, CLASSES, Map.of()));
        sw.reads.add(BEFORE);
        sw.reads.add(new IOException("connection refused"));
        sw.reads.add(NOW);
        try (FbaTuner tuner = new FbaTuner("s1", sw, FbaTuner.DEFAULT_PERIOD)) {
            for (int i = 0; i < 4; i++) {
                tuner.round();
            }
            // Not DT: nothing set; the failed read sets nothing either.
            assertEquals(List.of(sorted(FbaCalculator.alphas(BEFORE)),
                                 sorted(FbaCalculator.alphas(NOW))), sw.set);
            assertEquals(1, tuner.failures());
            assertEquals(2, tuner.rounds());
            assertEquals(1, tuner.skipped());
        }
    }

    @Test
    public void aPeriodBelowTheMinimumIsRefused() {
        IllegalArgumentException e = assertIllegal(
                () -> new FbaTuner("s1", new ScriptedSwitch(), Duration.ofMillis(5)));
        assertEquals("FBA period 5 ms: want at least 10 ms", e.getMessage());
    }
}
