/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * What the placement reads and writes on the fast-path switch besides UPF
 * entries: its slow port (include/hybrid.p4's slow_path) and its session
 * counters. The embedded host does it over its P4Runtime client.
 */
public interface FastPath {

    /**
     * Makes the switch a fast path whose session misses leave on a port,
     * or (empty) none.
     *
     * @param device   the switch
     * @param slowPort its port to the slow path; empty: misses are dropped
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when the switch does not take it
     */
    void setSlowPort(DeviceId device, Optional<PortNumber> slowPort);

    /**
     * Bytes counted so far in cells of the UPF's session counter.
     *
     * @param device the switch
     * @param cells  cells
     * @return bytes by cell
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when the switch cannot be read
     */
    Map<Integer, Long> sessionBytes(DeviceId device, Collection<Integer> cells);
}
