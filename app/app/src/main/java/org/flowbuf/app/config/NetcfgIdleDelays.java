/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import org.flowbuf.app.congestion.IdleDelay;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.LinkKey;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.NetworkConfigService;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Idle delays of switch ports from ONOS's netcfg: a link's congestion
 * section for the ports at either end, else the app's default.
 */
public final class NetcfgIdleDelays implements IdleDelay.Source {

    private final NetworkConfigService netcfg;
    private final Supplier<CcSettings> settings;

    /**
     * Creates the source.
     *
     * @param netcfg   ONOS's network configuration
     * @param settings the app's congestion settings now
     */
    public NetcfgIdleDelays(NetworkConfigService netcfg, Supplier<CcSettings> settings) {
        this.netcfg = Objects.requireNonNull(netcfg);
        this.settings = Objects.requireNonNull(settings);
    }

    @Override
    public IdleDelay of(DeviceId device, PortNumber port) {
        ConnectPoint at = new ConnectPoint(device, port);
        for (LinkKey link : netcfg.getSubjects(LinkKey.class, CongestionLinkConfig.class)) {
            if (at.equals(link.src()) || at.equals(link.dst())) {
                CongestionLinkConfig config = netcfg.getConfig(link, CongestionLinkConfig.class);
                if (config != null && config.isValid()) {
                    return config.idle();
                }
            }
        }
        return settings.get().defaultIdle();
    }
}
