/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import org.flowbuf.app.apps.fba.DtSnapshot.ClassSetting;
import org.flowbuf.app.apps.fba.DtSnapshot.QueueSample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * FBA's alphas (FB, §5.2): each queue's DT alpha becomes
 * alpha_c * 1/N_p * gamma, FB's Eq. 3 factors evaluated once per period.
 * <ul>
 * <li>N_p: the congested (non-empty) queues of the class's buffer priority
 * over all ports, the queue itself counted when it is empty (its next
 * packet would make it congested), as FB counts them.</li>
 * <li>gamma, the queue's normalised dequeue rate: for a congested queue,
 * its share of the bytes its port sent since the last snapshot (it had
 * packets to send, so that is what the scheduler gave it); for an empty
 * queue, or with no earlier snapshot or a port that sent nothing, inferred
 * from the port's scheduling: under strict priority 1 when no higher queue
 * of the port holds a packet, else 0; under round robin an equal share
 * with the port's congested queues, 1/(k + 1). An empty queue's measured
 * share says only that it had nothing to send.</li>
 * </ul>
 */
public final class FbaCalculator {

    /**
     * The smallest alpha FBA sets. DT needs an alpha above 0, and a queue
     * given 0 (gamma 0: a higher queue took the port for the whole period)
     * would refuse every packet until the next period even once the port
     * frees up; 1/64 is FB's smallest step in the P4 design's shift table.
     */
    public static final double MIN_ALPHA = 1.0 / 64;

    private FbaCalculator() {
    }

    /**
     * Every queue's alpha now.
     *
     * @param before the previous snapshot, or null for the first period
     * @param now    the snapshot now
     * @return an alpha for each queue of each port
     */
    public static List<QueueAlpha> alphas(DtSnapshot before, DtSnapshot now) {
        List<ClassSetting> classes = now.classes();
        int[] congested = congestedByPriority(now);
        List<QueueAlpha> out = new ArrayList<>();
        for (Map.Entry<Long, List<QueueSample>> port : now.ports().entrySet()) {
            List<QueueSample> queues = port.getValue();
            double[] gamma = gammas(previous(before, port.getKey(), queues.size()), queues,
                                    now.roundRobin());
            for (int q = 0; q < queues.size(); q++) {
                ClassSetting c = classes.get(q);
                int np = congested[priority(c)] + (queues.get(q).congested() ? 0 : 1);
                double alpha = c.alpha * gamma[q] / np;
                out.add(new QueueAlpha(port.getKey(), q, Math.max(MIN_ALPHA, alpha)));
            }
        }
        return out;
    }

    private static int priority(ClassSetting c) {
        return c.high ? 1 : 0;
    }

    private static int[] congestedByPriority(DtSnapshot now) {
        int[] congested = new int[2];
        for (List<QueueSample> queues : now.ports().values()) {
            for (int q = 0; q < queues.size(); q++) {
                if (queues.get(q).congested()) {
                    congested[priority(now.classes().get(q))]++;
                }
            }
        }
        return congested;
    }

    /** The port's queues in the previous snapshot, or null when unknown. */
    private static List<QueueSample> previous(DtSnapshot before, long port, int size) {
        if (before == null) {
            return null;
        }
        List<QueueSample> queues = before.ports().get(port);
        return queues != null && queues.size() == size ? queues : null;
    }

    private static double[] gammas(List<QueueSample> before, List<QueueSample> now,
                                   boolean roundRobin) {
        double[] gamma = roundRobin ? roundRobin(now) : strictPriority(now);
        long[] sent = new long[now.size()];
        long portSent = 0;
        for (int q = 0; before != null && q < now.size(); q++) {
            sent[q] = now.get(q).dequeuedBytes - before.get(q).dequeuedBytes;
            if (sent[q] < 0) {
                return gamma; // a counter went back: the port was re-added
            }
            portSent += sent[q];
        }
        for (int q = 0; portSent > 0 && q < now.size(); q++) {
            if (now.get(q).congested()) {
                gamma[q] = (double) sent[q] / portSent;
            }
        }
        return gamma;
    }

    private static double[] roundRobin(List<QueueSample> now) {
        int busy = (int) now.stream().filter(QueueSample::congested).count();
        double[] gamma = new double[now.size()];
        for (int q = 0; q < now.size(); q++) {
            gamma[q] = 1.0 / (busy + (now.get(q).congested() ? 0 : 1));
        }
        return gamma;
    }

    private static double[] strictPriority(List<QueueSample> now) {
        double[] gamma = new double[now.size()];
        boolean higherHolds = false;
        for (int q = now.size() - 1; q >= 0; q--) {
            gamma[q] = higherHolds ? 0 : 1;
            higherHolds |= now.get(q).congested();
        }
        return gamma;
    }
}
