/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.gnb;

import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Optional;

/**
 * The hybrid gNodeB (gnb.p4): each gNodeB device's ports, cells and
 * bearers, from its "gnb" netcfg section, and bearers added and removed at
 * run time. A change is written to the device (clone sessions, ports and
 * bearer entries) before it is answered.
 */
public interface GnbService {

    /**
     * Every gNodeB device.
     *
     * @return devices, by device id
     */
    List<GnbDevice> devices();

    /**
     * A gNodeB device.
     *
     * @param deviceId device
     * @return it, when the device has a "gnb" section
     */
    Optional<GnbDevice> device(DeviceId deviceId);

    /**
     * Adds a bearer at the end of the device's list (its SN cell is the
     * next free index; no other bearer moves).
     *
     * @param deviceId the gNodeB
     * @param bearer   the bearer
     * @return the device with it
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND (no such gNodeB), INVALID (an
     *                                          unknown cell), CONFLICT (the TEID is
     *                                          taken, the device is full), UNAVAILABLE
     *                                          (the device refused); nothing changed
     */
    GnbDevice addBearer(DeviceId deviceId, GnbBearer bearer);

    /**
     * Removes a bearer. The bearers after it move up one SN cell each, and
     * their PDCP SNs continue from their new cell's count.
     *
     * @param deviceId the gNodeB
     * @param teid     its downlink TEID
     * @return the removed bearer
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND (no such gNodeB or bearer),
     *                                          UNAVAILABLE (the device refused)
     */
    GnbBearer removeBearer(DeviceId deviceId, long teid);
}
