/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.flowbuf.api.FlowBufException;

import java.util.Collection;
import java.util.Optional;

/**
 * Congestion avoidance for latency-critical flows: each flow is installed
 * on a primary path and, in DATAPLANE mode, a switch-disjoint backup, with
 * thresholds the switches check per packet; a switch-over the data plane
 * makes is reported back and answered with a new backup.
 */
public interface CongestionService {

    /**
     * Registers a flow and installs it on every switch of its paths.
     *
     * @param request what to register
     * @return the flow
     * @throws FlowBufException INVALID (bad field, budget under the path's idle
     *                          delay, no disjoint backup), NOT_FOUND (unknown host, no
     *                          path), EXHAUSTED (no free flow index), UNAVAILABLE (a
     *                          switch cannot be reached); nothing stays installed
     */
    LatencyCriticalFlow register(CcFlowRequest request);

    /**
     * Removes a flow from every switch.
     *
     * @param id flow id
     * @throws FlowBufException NOT_FOUND
     */
    void remove(long id);

    /**
     * A flow by id.
     *
     * @param id flow id
     * @return the flow
     */
    Optional<LatencyCriticalFlow> flow(long id);

    /**
     * Every flow.
     *
     * @return flows
     */
    Collection<LatencyCriticalFlow> flows();
}
