/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.gnb;

import java.util.Objects;

/**
 * A cell of a gNodeB: its id, the switch port of its radio side and the
 * switch port of its BaaS buffer's vport (where downlink PDUs are cloned).
 */
public final class GnbCell {

    private final int id;
    private final long radioPort;
    private final long baasPort;

    /**
     * A cell (the device's netcfg section checks the values).
     *
     * @param id        cell id
     * @param radioPort radio port
     * @param baasPort  BaaS vport's switch port
     */
    public GnbCell(int id, long radioPort, long baasPort) {
        this.id = id;
        this.radioPort = radioPort;
        this.baasPort = baasPort;
    }

    /**
     * The cell id.
     *
     * @return id
     */
    public int id() {
        return id;
    }

    /**
     * The radio side's switch port.
     *
     * @return port
     */
    public long radioPort() {
        return radioPort;
    }

    /**
     * The switch port of the BaaS buffer's vport.
     *
     * @return port
     */
    public long baasPort() {
        return baasPort;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GnbCell && id == ((GnbCell) o).id
                && radioPort == ((GnbCell) o).radioPort && baasPort == ((GnbCell) o).baasPort;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, radioPort, baasPort);
    }

    @Override
    public String toString() {
        return "cell " + id + " (radio port " + radioPort + ", BaaS port " + baasPort + ")";
    }
}
