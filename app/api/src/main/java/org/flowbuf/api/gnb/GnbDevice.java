/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.gnb;

import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Objects;

/**
 * A gNodeB device as configured: its UPF port, cells and bearers. A
 * bearer's PDCP SN counter is the pdcp_sn cell of its position in the list.
 */
public final class GnbDevice {

    private final DeviceId deviceId;
    private final long upfPort;
    private final List<GnbCell> cells;
    private final List<GnbBearer> bearers;

    /**
     * A gNodeB.
     *
     * @param deviceId the device
     * @param upfPort  the port towards the UPF
     * @param cells    its cells
     * @param bearers  its bearers, in SN cell order
     */
    public GnbDevice(DeviceId deviceId, long upfPort, List<GnbCell> cells,
                     List<GnbBearer> bearers) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.upfPort = upfPort;
        this.cells = List.copyOf(cells);
        this.bearers = List.copyOf(bearers);
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The port towards the UPF.
     *
     * @return port
     */
    public long upfPort() {
        return upfPort;
    }

    /**
     * The cells, in order.
     *
     * @return cells
     */
    public List<GnbCell> cells() {
        return cells;
    }

    /**
     * The bearers; a bearer's index is its PDCP SN cell.
     *
     * @return bearers
     */
    public List<GnbBearer> bearers() {
        return bearers;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GnbDevice && deviceId.equals(((GnbDevice) o).deviceId)
                && upfPort == ((GnbDevice) o).upfPort && cells.equals(((GnbDevice) o).cells)
                && bearers.equals(((GnbDevice) o).bearers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, upfPort, cells, bearers);
    }
}
