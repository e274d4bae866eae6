/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

/**
 * Writes the congestion service's entries to a switch (P4Runtime in the
 * embedded host, the FlowRuleService in ONOS). It writes no register: a
 * flow's cells start from zero by its generation (see congestion.p4).
 */
public interface CcWriter {

    /**
     * Applies a write: the removals (entries already gone are fine), then
     * the inserts and modifications as one batch. When the
     * batch is refused, the inserts it applied are removed again.
     *
     * @param deviceId switch
     * @param write    what to write
     * @throws FlowBufException when the switch refuses or cannot be reached
     */
    void write(DeviceId deviceId, CcWrite write);
}
