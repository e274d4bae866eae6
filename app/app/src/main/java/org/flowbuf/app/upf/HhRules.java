/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.HeavyHitterSettings;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import static org.flowbuf.pipeconf.HhP4Names.IDLE_US;
import static org.flowbuf.pipeconf.HhP4Names.SETTINGS;
import static org.flowbuf.pipeconf.HhP4Names.SET_HH;
import static org.flowbuf.pipeconf.HhP4Names.THRESHOLD;

/**
 * The heavy-hitter detector's flow rule: hh_settings' default action.
 */
public final class HhRules {

    private final ApplicationId appId;

    /**
     * Rules of an application.
     *
     * @param appId the application
     */
    public HhRules(ApplicationId appId) {
        this.appId = appId;
    }

    /**
     * hh_settings' default action for the settings: threshold 0 (off) when
     * they are disabled.
     *
     * @param device   the switch
     * @param settings settings
     * @return the rule (write it as the table's default action)
     */
    public FlowRule settings(DeviceId device, HeavyHitterSettings settings) {
        long threshold = settings.enabled() ? settings.thresholdEighthsUs() : 0;
        PiAction action = PiAction.builder().withId(SET_HH)
                .withParameter(new PiActionParam(THRESHOLD, threshold))
                .withParameter(new PiActionParam(IDLE_US, settings.idleUs())).build();
        return DefaultFlowRule.builder().forDevice(device).forTable(SETTINGS).fromApp(appId)
                .withPriority(0).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
