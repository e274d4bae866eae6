/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one change of the congestion service writes to one switch.
 */
public final class CcWrite {

    private final List<FlowRule> removes = new ArrayList<>();
    private final List<FlowRule> inserts = new ArrayList<>();
    private final List<FlowRule> modifies = new ArrayList<>();
    private final Set<Integer> resets = new TreeSet<>();

    /**
     * Entries to delete.
     *
     * @return mutable list
     */
    public List<FlowRule> removes() {
        return removes;
    }

    /**
     * Entries to insert.
     *
     * @return mutable list
     */
    public List<FlowRule> inserts() {
        return inserts;
    }

    /**
     * Entries whose action changes.
     *
     * @return mutable list
     */
    public List<FlowRule> modifies() {
        return modifies;
    }

    /**
     * Flow indexes whose register cells (slot, run, switched bit) start
     * again from zero: a reused index must not inherit a slot.
     *
     * @return mutable set
     */
    public Set<Integer> resets() {
        return resets;
    }

    /**
     * Whether there is nothing to write.
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return removes.isEmpty() && inserts.isEmpty() && modifies.isEmpty() && resets.isEmpty();
    }

    @Override
    public String toString() {
        return "-" + removes.size() + " +" + inserts.size() + " ~" + modifies.size()
                + " reset " + resets;
    }
}
