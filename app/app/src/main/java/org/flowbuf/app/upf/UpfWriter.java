/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

/**
 * Writes UPF entries and meter cells to a device: ONOS's FlowRuleService and
 * meter service on the device's master, or the embedded host's P4Runtime
 * client.
 */
public interface UpfWriter {

    /**
     * Applies a write: the removals, then the inserts and meter cells (the
     * host: one P4Runtime Write each). When the inserts are refused, those
     * that were applied are removed again, so the device keeps its state.
     *
     * @param deviceId device
     * @param write    what to write
     * @throws FlowBufException when the device refuses the write or cannot be reached
     */
    void write(DeviceId deviceId, UpfWrite write);

    /**
     * Writes entries and meter cells again after the device reconnected:
     * entries the device still has are kept.
     *
     * @param deviceId device
     * @param write    what to write (inserts and meter cells only)
     * @throws FlowBufException when the device refuses the write or cannot be reached
     */
    void rewrite(DeviceId deviceId, UpfWrite write);
}
