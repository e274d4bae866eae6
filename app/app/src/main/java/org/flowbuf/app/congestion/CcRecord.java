/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.LatencyCriticalFlow;

import java.util.Objects;

/**
 * A registered latency-critical flow as the congestion service keeps it: the
 * flow as its users see it and how it is laid out on the switches now.
 * Immutable: a change (a switch-over, a restore) keeps a new record.
 */
public final class CcRecord {

    private final LatencyCriticalFlow flow;
    private final CcLayout layout;

    CcRecord(LatencyCriticalFlow flow, CcLayout layout) {
        this.flow = Objects.requireNonNull(flow);
        this.layout = Objects.requireNonNull(layout);
    }

    /**
     * @return the flow, as registered and switched over since
     */
    public LatencyCriticalFlow flow() {
        return flow;
    }

    CcLayout layout() {
        return layout;
    }

    long id() {
        return flow.id();
    }

    CcRecord with(CcLayout next) {
        return new CcRecord(flow, next);
    }

    CcRecord with(LatencyCriticalFlow next, CcLayout nextLayout) {
        return new CcRecord(next, nextLayout);
    }
}
