/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.HybridSettingsCodec;
import org.flowbuf.api.upf.HybridSettings;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;

/**
 * The hybrid UPF placement's netcfg section (apps."org.flowbuf.app".hybrid):
 * fastDevice, slowDevice, slowPort, dnPort, fastTableBudget, demoteIdleMs,
 * windowMs ({@link HybridSettings}); {} is off.
 */
public final class HybridAppConfig extends Config<ApplicationId> {

    /** Key of this configuration under the app. */
    public static final String CONFIG_KEY = "hybrid";

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
     * @return settings ({@link HybridSettings#off()} for {})
     * @throws IllegalArgumentException naming a field out of range
     */
    public HybridSettings settings() {
        if (!(node() instanceof ObjectNode)) {
            throw new IllegalArgumentException(CONFIG_KEY + ": not an object");
        }
        try {
            return HybridSettingsCodec.parse((ObjectNode) node());
        } catch (FlowBufException e) {
            throw new IllegalArgumentException(CONFIG_KEY + ": " + e.getMessage(), e);
        }
    }
}
