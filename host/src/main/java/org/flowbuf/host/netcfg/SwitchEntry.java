/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.host.fba.FbaSetting;
import org.onosproject.net.DeviceId;

import java.util.Objects;
import java.util.Optional;

/**
 * A device of the netcfg: where its P4Runtime server is, and its FlowBuf
 * section if it has buffers.
 */
public final class SwitchEntry {

    private final DeviceId deviceId;
    private final String p4rtHost;
    private final int p4rtPort;
    private final long p4DeviceId;
    private final FlowBufDeviceConfig flowbuf;
    private final FbaSetting fba;
    private final FbDeviceConfig fb;
    private final GnbDeviceConfig gnb;

    SwitchEntry(DeviceId deviceId, String p4rtHost, int p4rtPort, long p4DeviceId,
                FlowBufDeviceConfig flowbuf, FbaSetting fba, FbDeviceConfig fb, GnbDeviceConfig gnb) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.p4rtHost = Objects.requireNonNull(p4rtHost);
        this.p4rtPort = p4rtPort;
        this.p4DeviceId = p4DeviceId;
        this.flowbuf = flowbuf;
        this.fba = fba;
        this.fb = fb;
        this.gnb = gnb;
    }

    /**
     * ONOS device id.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * Host of the P4Runtime server.
     *
     * @return host name or address
     */
    public String p4rtHost() {
        return p4rtHost;
    }

    /**
     * Port of the P4Runtime server.
     *
     * @return TCP port
     */
    public int p4rtPort() {
        return p4rtPort;
    }

    /**
     * P4Runtime device id.
     *
     * @return device id on the server
     */
    public long p4DeviceId() {
        return p4DeviceId;
    }

    /**
     * The device's FlowBuf config.
     *
     * @return config, empty for a switch without buffers
     */
    public Optional<FlowBufDeviceConfig> flowbuf() {
        return Optional.ofNullable(flowbuf);
    }

    /**
     * The device's FBA setting.
     *
     * @return setting, empty when FBA does not run on it
     */
    public Optional<FbaSetting> fba() {
        return Optional.ofNullable(fba);
    }

    /**
     * FB admission in the device's P4 program.
     *
     * @return config, empty when the program's FB is not used on it
     */
    public Optional<FbDeviceConfig> fb() {
        return Optional.ofNullable(fb);
    }

    /**
     * The gNodeB in the device's P4 program.
     *
     * @return config, empty when the device is no gNodeB
     */
    public Optional<GnbDeviceConfig> gnb() {
        return Optional.ofNullable(gnb);
    }
}
