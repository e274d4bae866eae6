/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import org.flowbuf.app.congestion.IdleDelay;
import org.onosproject.net.LinkKey;
import org.onosproject.net.config.Config;

/**
 * A link's idle delays in ONOS's netcfg, links."SRC-DST".congestion
 * {idleQueueUs, idleProcUs}: what the congestion service derives a
 * latency-critical flow's thresholds from on the switch ports at either
 * end. The embedded host's netcfg has the same section.
 */
public final class CongestionLinkConfig extends Config<LinkKey> {

    /** Key of this configuration under a link. */
    public static final String CONFIG_KEY = "congestion";

    @Override
    public boolean isValid() {
        try {
            idle();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The link's idle delays.
     *
     * @return delays, the defaults for a field it gives none
     * @throws IllegalArgumentException when one is out of range
     */
    public IdleDelay idle() {
        return CcSettings.idle(node(), "netcfg links." + subject() + ".congestion");
    }
}
