/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.packet;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

/**
 * Sends a frame out of a switch port through the pipeline's packet-out: by
 * ONOS's PacketService in ONOS, by the P4Runtime stream in the embedded host.
 */
@FunctionalInterface
public interface PacketEmitter {

    /**
     * Emits a frame.
     *
     * @param deviceId switch
     * @param port     port the frame leaves on
     * @param frame    Ethernet frame
     * @throws org.flowbuf.api.FlowBufException when the switch is unreachable
     */
    void emit(DeviceId deviceId, PortNumber port, byte[] frame);
}
