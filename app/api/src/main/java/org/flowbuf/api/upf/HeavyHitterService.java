/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import java.util.List;
import java.util.function.Consumer;

/**
 * Heavy-hitter detection on the UPF switches: its settings, which every
 * switch takes, and the UEs the switches report as heavy.
 */
public interface HeavyHitterService {

    /**
     * The settings the switches run with.
     *
     * @return settings
     */
    HeavyHitterSettings settings();

    /**
     * Writes new settings to every switch.
     *
     * @param settings checked settings ({@link HeavyHitterSettings#of})
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when a switch did not
     *                                          take them (those that did keep them)
     */
    void configure(HeavyHitterSettings settings);

    /**
     * The latest reports, oldest first (a bounded history).
     *
     * @return reports
     */
    List<HeavyHitter> recent();

    /**
     * Calls a listener with every report from now on (a placement step
     * promotes the UE), on the thread that delivers reports: in the
     * embedded host a switch's P4Runtime stream, so a listener that calls a
     * switch hands the report to a thread of its own.
     *
     * @param listener listener
     */
    void addListener(Consumer<HeavyHitter> listener);

    /**
     * Stops calling a listener.
     *
     * @param listener listener
     */
    void removeListener(Consumer<HeavyHitter> listener);
}
