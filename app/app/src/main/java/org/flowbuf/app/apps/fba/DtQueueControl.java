/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import java.io.IOException;
import java.util.List;

/**
 * A switch's DT buffer as FBA needs it: read the queues, set their alphas.
 * P4Runtime carries neither, so each kind of switch brings its own (the
 * embedded host: pbswitch's admin API).
 */
public interface DtQueueControl {

    /**
     * Reads the buffer's state now.
     *
     * @return the snapshot
     * @throws IOException when the switch cannot be read
     */
    DtSnapshot read() throws IOException;

    /**
     * Replaces every queue's own alpha (queues not listed: their class's).
     *
     * @param alphas the alphas
     * @throws IOException when the switch refuses or cannot be reached
     */
    void setAlphas(List<QueueAlpha> alphas) throws IOException;
}
