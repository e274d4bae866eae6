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
 * <li>gamma, the queue's normalised dequeue rate, inferred from its port's
 * scheduling and active queues as the paper's FBA does (§5.2, "infers the
 * per-queue dequeue rate considering the scheduling algorithm per port and
 * the number of active queues"), and as FB does per packet: under round
 * robin an equal share with the port's other congested queues, 1/k, an
 * empty queue counted as the next congested one, 1/(k + 1); under strict
 * priority 1 when no higher queue of the port holds a packet, else 0.</li>
 * </ul>
 * The bytes a queue sent over the last period are not its gamma: a burst's
 * queue (the queries') holds packets for tens of ms of a 1 s period, and
 * its share of the period's bytes (a few %) would set its alpha near the
 * floor for the whole next period, dropping the next burst (issue 44: what
 * the traces showed).
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
     * @param now the switch's queues now
     * @return an alpha for each queue of each port
     */
    public static List<QueueAlpha> alphas(DtSnapshot now) {
        List<ClassSetting> classes = now.classes();
        int[] congested = congestedByPriority(now);
        List<QueueAlpha> out = new ArrayList<>();
        for (Map.Entry<Long, List<QueueSample>> port : now.ports().entrySet()) {
            List<QueueSample> queues = port.getValue();
            double[] gamma = now.roundRobin() ? roundRobin(queues) : strictPriority(queues);
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
