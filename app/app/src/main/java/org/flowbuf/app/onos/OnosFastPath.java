/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.upf.hybrid.FastPath;
import org.flowbuf.app.upf.hybrid.PlacementEntries;
import org.flowbuf.pipeconf.UpfP4Names;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fast path in ONOS: slow_path's default action through the
 * FlowRuleService, the session counter's cells over ONOS's P4Runtime
 * client.
 */
final class OnosFastPath implements FastPath {

    /** What reads the session counter's cells (the P4Runtime client; a fake in tests). */
    @FunctionalInterface
    interface SessionCells {
        Map<Integer, Long> bytes(DeviceId device, Collection<Integer> cells);
    }

    private final ApplicationId appId;
    private final FlowRuleBatches batches;
    private final SessionCells cells;

    OnosFastPath(ApplicationId appId, FlowRuleBatches batches, SessionCells cells) {
        this.appId = appId;
        this.batches = batches;
        this.cells = cells;
    }

    /**
     * Session counter cells read over P4Runtime.
     *
     * @param reader the reader
     * @return the cells
     */
    static SessionCells overP4Runtime(P4RuntimeCounterCells reader) {
        return (device, cells) -> reader.bytes(device, UpfP4Names.SESSION_COUNTER, cells);
    }

    @Override
    public void setSlowPort(DeviceId device, Optional<PortNumber> slowPort) {
        batches.add(List.of(PlacementEntries.slowPath(appId, device, slowPort)),
                    "write the slow path of " + device);
    }

    @Override
    public Map<Integer, Long> sessionBytes(DeviceId device, Collection<Integer> cells) {
        return this.cells.bytes(device, cells);
    }
}
