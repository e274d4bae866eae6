/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.junit.Test;

import java.util.Locale;
import java.util.Random;

import static org.junit.Assert.assertEquals;

/**
 * The Server-Timing header's value, written without the formatter, is what
 * {@code String.format("%s;dur=%.3f", "app", nanos / 1e6)} gave.
 */
public class ServerTimingFilterTest {

    private static String formatted(long nanos) {
        return String.format(Locale.ROOT, "%s;dur=%.3f", ServerTimingFilter.METRIC, nanos / 1e6);
    }

    @Test
    public void theHeaderIsWhatTheFormatterGave() {
        long[] edges = {0, 1, 499, 500, 501, 999, 1_000, 1_499, 1_500, 9_999, 10_000, 99_499,
                        99_500, 999_499, 999_500, 1_000_000, 1_500_000, 12_345_678,
                        1_234_567_890_123L, -1, -500, -501, -1_500_000};
        for (long nanos : edges) {
            assertEquals("nanos " + nanos, formatted(nanos), ServerTimingFilter.header(nanos));
        }
        Random random = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            long nanos = random.nextInt(4) == 0 ? random.nextInt(2_000)
                    : (long) (random.nextDouble() * 60e9);
            assertEquals("nanos " + nanos, formatted(nanos), ServerTimingFilter.header(nanos));
        }
        assertEquals("app;dur=1.500", ServerTimingFilter.header(1_500_000));
    }
}
