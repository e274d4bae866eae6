/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.List;

/**
 * Writes a device's multicast groups (the packet replication engine): the
 * targets of steering rules made by {@link SteeringRule#toMulticastGroup}.
 * Through ONOS's GroupService (ALL groups) in ONOS, as P4Runtime PRE
 * multicast group entries in the embedded host.
 */
public interface MulticastGroupWriter {

    /**
     * Creates the group or replaces its ports; returns once the device
     * accepted it. Each port gets one copy of every packet steered to the
     * group.
     *
     * @param deviceId device
     * @param groupId  multicast group id, 1..65535
     * @param ports    the group's ports: physical, distinct, at least one
     * @throws org.flowbuf.api.FlowBufException INVALID for a group id outside
     *                                          1..65535, no ports, a repeated
     *                                          port or a port that is not a
     *                                          physical port of the P4 program;
     *                                          NOT_FOUND when the writer has no
     *                                          session with the device;
     *                                          UNAVAILABLE (or INVALID, when
     *                                          the device says so) when the
     *                                          device refuses or does not
     *                                          confirm the group in time
     */
    void write(DeviceId deviceId, int groupId, List<PortNumber> ports);

    /**
     * Removes the group (no error when absent). Steering rules that still
     * name the group then send their packets nowhere.
     *
     * @param deviceId device
     * @param groupId  multicast group id, 1..65535
     * @throws org.flowbuf.api.FlowBufException INVALID for a group id outside
     *                                          1..65535; NOT_FOUND when the
     *                                          writer has no session with the
     *                                          device; UNAVAILABLE (or INVALID,
     *                                          when the device says so) when
     *                                          the device refuses or does not
     *                                          confirm the removal in time
     */
    void remove(DeviceId deviceId, int groupId);
}
