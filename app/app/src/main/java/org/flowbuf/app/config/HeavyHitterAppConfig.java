/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.HeavyHitterSettingsCodec;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.config.Config;

/**
 * The heavy-hitter detector's netcfg section (apps."org.flowbuf.app".heavyHitters):
 * enabled, rateBps, packetBytes, idleMs ({@link HeavyHitterSettings}).
 */
public final class HeavyHitterAppConfig extends Config<ApplicationId> {

    /** Key of this configuration under the app. */
    public static final String CONFIG_KEY = "heavyHitters";

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
    public HeavyHitterSettings settings() {
        if (!(node() instanceof ObjectNode)) {
            throw new IllegalArgumentException(CONFIG_KEY + ": not an object");
        }
        try {
            return HeavyHitterSettingsCodec.parse((ObjectNode) node());
        } catch (FlowBufException e) {
            throw new IllegalArgumentException(CONFIG_KEY + ": " + e.getMessage(), e);
        }
    }
}
