/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;

/**
 * FB in a switch's P4 program, from its device's "fb" netcfg section: the
 * class and shift entries (kept when the switch has them) and B.
 */
final class FbTables {

    private FbTables() {
    }

    static void write(SwitchSession session, ApplicationId appId, FbDeviceConfig config) {
        session.insertMissing(FbFlowRules.entries(appId, session.deviceId(), config));
        session.setDefaultAction(FbFlowRules.buffer(appId, session.deviceId(), config));
    }
}
