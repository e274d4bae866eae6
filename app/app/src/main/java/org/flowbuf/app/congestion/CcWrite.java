/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.List;

/**
 * What one change of the congestion service writes to one switch.
 */
public final class CcWrite {

    private final List<FlowRule> removes = new ArrayList<>();
    private final List<FlowRule> inserts = new ArrayList<>();
    private final List<FlowRule> modifies = new ArrayList<>();

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
     * Whether there is nothing to write.
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return removes.isEmpty() && inserts.isEmpty() && modifies.isEmpty();
    }

    @Override
    public String toString() {
        return "-" + removes.size() + " +" + inserts.size() + " ~" + modifies.size();
    }
}
