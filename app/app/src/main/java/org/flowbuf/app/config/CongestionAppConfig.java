/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;

/**
 * The congestion service's settings in ONOS's netcfg,
 * apps."org.flowbuf.app".congestion: the same section, read by the same
 * rules, as the embedded host's netcfg (see {@link CcSettings}).
 */
public final class CongestionAppConfig extends Config<ApplicationId> {

    /** Key of this configuration under the app. */
    public static final String CONFIG_KEY = "congestion";

    @Override
    public boolean isValid() {
        try {
            settings();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The settings.
     *
     * @return settings, defaults where the section says nothing
     * @throws IllegalArgumentException naming a field out of range
     */
    public CcSettings settings() {
        return CcSettings.parse(node());
    }
}
