/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The fb_shift entries of FB's P4 admission: for each class alpha and each
 * N_p (congested queues of the class's buffer priority) and n (congested
 * queues of the port), the power of two nearest alpha / (N_p * n), as a
 * left or a right shift of the remaining buffer. Consecutive N_p with the
 * same shift share one range entry; the last range runs to the largest
 * value, so no N_p falls through to the table's default.
 */
public final class FbShiftPlan {

    /** Largest value of the 32-bit range keys. */
    public static final long KEY_MAX = (1L << 32) - 1;
    /** Most queues a port has (pbswitch's and the program's priorities). */
    public static final int QUEUES_PER_PORT = 8;
    private static final int MAX_SHIFT = 31;

    /** One fb_shift entry. */
    public static final class Entry {
        final int alphaId;
        final long congestedLow;
        final long congestedHigh;
        final int active;
        final int left;
        final int right;

        Entry(int alphaId, long congestedLow, long congestedHigh, int active, int left,
              int right) {
            this.alphaId = alphaId;
            this.congestedLow = congestedLow;
            this.congestedHigh = congestedHigh;
            this.active = active;
            this.left = left;
            this.right = right;
        }

        /**
         * The alpha id key.
         *
         * @return alpha id
         */
        public int alphaId() {
            return alphaId;
        }

        /**
         * Low end of the N_p range.
         *
         * @return N_p
         */
        public long congestedLow() {
            return congestedLow;
        }

        /**
         * High end of the N_p range.
         *
         * @return N_p
         */
        public long congestedHigh() {
            return congestedHigh;
        }

        /**
         * n (the n range is this one value; the last, QUEUES_PER_PORT, runs to KEY_MAX).
         *
         * @return n
         */
        public int active() {
            return active;
        }

        /**
         * Left shift of the remaining buffer.
         *
         * @return bits
         */
        public int left() {
            return left;
        }

        /**
         * Right shift of the remaining buffer.
         *
         * @return bits
         */
        public int right() {
            return right;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Entry)) {
                return false;
            }
            Entry e = (Entry) o;
            return alphaId == e.alphaId && congestedLow == e.congestedLow
                    && congestedHigh == e.congestedHigh && active == e.active && left == e.left
                    && right == e.right;
        }

        @Override
        public int hashCode() {
            return Objects.hash(alphaId, congestedLow, congestedHigh, active, left, right);
        }

        @Override
        public String toString() {
            return "alpha " + alphaId + " N_p [" + congestedLow + ", " + congestedHigh + "] n "
                    + active + ": << " + left + " >> " + right;
        }
    }

    private FbShiftPlan() {
    }

    /**
     * The entries for the given alphas.
     *
     * @param alphas       alpha by alpha id (0..255), each finite and &gt; 0
     * @param maxCongested the largest N_p to tell apart (queues of one priority)
     * @return the entries, by alpha id, n, then N_p
     */
    public static List<Entry> entries(Map<Integer, Double> alphas, int maxCongested) {
        checkArgument(maxCongested >= 1, "maxCongested %s: want at least 1", maxCongested);
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<Integer, Double> a : new TreeMap<>(alphas).entrySet()) {
            int id = a.getKey();
            double alpha = a.getValue();
            checkArgument(id >= 0 && id <= 255, "alpha id %s: want 0..255", id);
            checkArgument(alpha > 0 && Double.isFinite(alpha),
                          "alpha %s of id %s: want a finite number > 0", (Object) alpha,
                          (Object) id);
            for (int n = 1; n <= QUEUES_PER_PORT; n++) {
                addRanges(out, id, alpha, n, maxCongested);
            }
        }
        return out;
    }

    /**
     * The shift nearest alpha / (congested * active): positive right,
     * negative left.
     *
     * @param alpha     alpha_c
     * @param congested N_p
     * @param active    n
     * @return log2 of (congested * active / alpha), rounded
     */
    static int shift(double alpha, long congested, int active) {
        double log2 = Math.log((double) congested * active / alpha) / Math.log(2);
        return (int) Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, Math.round(log2)));
    }

    private static void addRanges(List<Entry> out, int id, double alpha, int n, int max) {
        long low = 1;
        int current = shift(alpha, 1, n);
        for (long np = 2; np <= max; np++) {
            int s = shift(alpha, np, n);
            if (s != current) {
                out.add(entry(id, low, np - 1, n, current));
                low = np;
                current = s;
            }
        }
        out.add(entry(id, low, KEY_MAX, n, current));
    }

    private static Entry entry(int id, long low, long high, int n, int shift) {
        return new Entry(id, low, high, n, Math.max(0, -shift), Math.max(0, shift));
    }
}
