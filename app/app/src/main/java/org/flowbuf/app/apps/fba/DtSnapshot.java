/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * What a DT switch shows of its shared buffer at one instant: the
 * algorithm, each class's alpha and buffer priority (a class is a queue
 * index, the same at every port), and every port's queues.
 */
public final class DtSnapshot {

    /** One class: its alpha_c and whether it is of FB's high priority. */
    public static final class ClassSetting {
        final double alpha;
        final boolean high;

        /**
         * A class.
         *
         * @param alpha alpha_c, greater than 0
         * @param high  true for the high buffer priority
         */
        public ClassSetting(double alpha, boolean high) {
            checkArgument(alpha > 0 && Double.isFinite(alpha), "alpha %s must be finite and > 0",
                          alpha);
            this.alpha = alpha;
            this.high = high;
        }
    }

    /** One queue of a port: the bytes it holds now. */
    public static final class QueueSample {
        final long lengthBytes;

        /**
         * A queue's sample.
         *
         * @param lengthBytes bytes it holds
         */
        public QueueSample(long lengthBytes) {
            this.lengthBytes = lengthBytes;
        }

        boolean congested() {
            return lengthBytes > 0;
        }
    }

    private final boolean dynamicThresholds;
    private final boolean roundRobin;
    private final List<ClassSetting> classes;
    private final Map<Long, List<QueueSample>> ports;

    /**
     * A snapshot of a switch whose ports schedule by strict priority.
     *
     * @param dynamicThresholds true when the buffer admits by DT
     * @param classes           the classes, by queue index
     * @param ports             each port's queues, by queue index (as many as classes)
     */
    public DtSnapshot(boolean dynamicThresholds, List<ClassSetting> classes,
                      Map<Long, List<QueueSample>> ports) {
        this(dynamicThresholds, false, classes, ports);
    }

    /**
     * A snapshot.
     *
     * @param dynamicThresholds true when the buffer admits by DT
     * @param roundRobin        true when the ports serve their queues round robin, false
     *                          for strict priority
     * @param classes           the classes, by queue index
     * @param ports             each port's queues, by queue index (as many as classes)
     */
    public DtSnapshot(boolean dynamicThresholds, boolean roundRobin, List<ClassSetting> classes,
                      Map<Long, List<QueueSample>> ports) {
        ports.forEach((port, queues) -> checkArgument(
                queues.size() == classes.size(), "port %s has %s queues for %s classes", port,
                queues.size(), classes.size()));
        this.dynamicThresholds = dynamicThresholds;
        this.roundRobin = roundRobin;
        this.classes = ImmutableList.copyOf(classes);
        this.ports = ImmutableMap.copyOf(ports);
    }

    /**
     * Whether the switch admits by DT (per-queue alphas are used only then).
     *
     * @return true under DT
     */
    public boolean dynamicThresholds() {
        return dynamicThresholds;
    }

    boolean roundRobin() {
        return roundRobin;
    }

    List<ClassSetting> classes() {
        return classes;
    }

    Map<Long, List<QueueSample>> ports() {
        return ports;
    }
}
