/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * FBA on one switch: every period, read its DT buffer, compute the alphas,
 * set them. A switch not on DT is left alone (its admission is someone
 * else's choice); a failed round is logged and counted, and the next one
 * starts afresh.
 */
public final class FbaTuner implements AutoCloseable {

    /** The paper's period (FB, §6: 1 s). */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    /** The shortest period accepted: below, reading and writing the switch is the load. */
    public static final Duration MIN_PERIOD = Duration.ofMillis(10);

    private static final Logger LOG = LoggerFactory.getLogger(FbaTuner.class);

    private final String name;
    private final DtQueueControl control;
    private final Duration period;
    private final ScheduledExecutorService timer;
    private volatile long rounds;
    private volatile long failures;
    private volatile long skipped;
    private volatile List<QueueAlpha> lastAlphas = List.of();

    /**
     * A tuner; {@link #start()} runs it.
     *
     * @param name    the switch, for logs and the timer thread
     * @param control the switch's buffer
     * @param period  how often to re-tune, at least {@link #MIN_PERIOD}
     */
    public FbaTuner(String name, DtQueueControl control, Duration period) {
        checkArgument(period.compareTo(MIN_PERIOD) >= 0, "FBA period %s ms: want at least %s ms",
                      period.toMillis(), MIN_PERIOD.toMillis());
        this.name = name;
        this.control = control;
        this.period = period;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fba-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Re-tunes every period from now on. */
    public void start() {
        timer.scheduleWithFixedDelay(this::round, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * One period's work: read, compute, set. Runs on the timer thread (or
     * a test's, never both).
     */
    void round() {
        try {
            DtSnapshot now = control.read();
            if (!now.dynamicThresholds()) {
                skipped++;
                return;
            }
            List<QueueAlpha> alphas = FbaCalculator.alphas(now);
            control.setAlphas(alphas);
            lastAlphas = List.copyOf(alphas);
            rounds++;
        } catch (IOException | RuntimeException e) {
            failures++;
            LOG.warn("FBA on {}: round failed: {}", name, e.getMessage());
        }
    }

    /**
     * Rounds that found the switch off DT and left it alone.
     *
     * @return count
     */
    public long skipped() {
        return skipped;
    }

    /**
     * Rounds that set alphas.
     *
     * @return count
     */
    public long rounds() {
        return rounds;
    }

    /**
     * Rounds that failed (switch unreachable, or it refused the alphas).
     *
     * @return count
     */
    public long failures() {
        return failures;
    }

    /**
     * The alphas of the last round that set them.
     *
     * @return alphas, empty before the first
     */
    public List<QueueAlpha> lastAlphas() {
        return lastAlphas;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
