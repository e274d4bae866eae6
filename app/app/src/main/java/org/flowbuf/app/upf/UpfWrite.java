/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.List;

/**
 * What one UPF change writes to one device: entries to remove, entries to
 * insert and meter cells to configure. A writer applies the removals first,
 * then the inserts and meter cells together.
 */
public final class UpfWrite {

    private final List<FlowRule> removes = new ArrayList<>();
    private final List<FlowRule> inserts = new ArrayList<>();
    private final List<MeterCell> meters = new ArrayList<>();

    /**
     * Entries to remove.
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
     * Meter cells to configure (or reset).
     *
     * @return mutable list
     */
    public List<MeterCell> meters() {
        return meters;
    }

    /**
     * Whether there is nothing to write.
     *
     * @return true when empty
     */
    public boolean isEmpty() {
        return removes.isEmpty() && inserts.isEmpty() && meters.isEmpty();
    }

    /**
     * How many entities the write touches.
     *
     * @return count
     */
    public int size() {
        return removes.size() + inserts.size() + meters.size();
    }
}
