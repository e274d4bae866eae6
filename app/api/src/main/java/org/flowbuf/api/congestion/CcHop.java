/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;

/**
 * One switch of a path and the port the flow leaves it by.
 */
public final class CcHop {

    private final DeviceId device;
    private final PortNumber outPort;

    /**
     * Creates a hop.
     *
     * @param device  switch
     * @param outPort port towards the next switch (or the destination host)
     */
    public CcHop(DeviceId device, PortNumber outPort) {
        this.device = Objects.requireNonNull(device);
        this.outPort = Objects.requireNonNull(outPort);
    }

    /**
     * The switch.
     *
     * @return device id
     */
    public DeviceId device() {
        return device;
    }

    /**
     * The port the flow leaves by.
     *
     * @return port
     */
    public PortNumber outPort() {
        return outPort;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CcHop)) {
            return false;
        }
        CcHop h = (CcHop) o;
        return device.equals(h.device) && outPort.equals(h.outPort);
    }

    @Override
    public int hashCode() {
        return Objects.hash(device, outPort);
    }

    @Override
    public String toString() {
        return device + "/" + outPort;
    }
}
