/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;

/**
 * The buffer agent of each device and the switch ports reserved for its
 * vports, as network configuration declares them.
 */
public interface AgentDirectory {

    /**
     * The client of a device's agent.
     *
     * @param deviceId device
     * @return client
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND if the device has no agent configured
     */
    BufferAgentClient agent(DeviceId deviceId);

    /**
     * The vport slots of a device, in configuration order.
     *
     * @param deviceId device
     * @return slots (empty when the device has none)
     */
    List<VportSlot> vportSlots(DeviceId deviceId);

    /**
     * How many empty BUFFERING buffers the service keeps made ahead on a
     * device, so that a pause needing a new buffer makes no agent call.
     *
     * @param deviceId device
     * @return ready buffers wanted (0: none, the default)
     */
    default int readyBuffers(DeviceId deviceId) {
        return 0;
    }

    /**
     * The devices that have an agent configured.
     *
     * @return device ids
     */
    Set<DeviceId> devices();
}
