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
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.List;

import static org.flowbuf.pipeconf.HhP4Names.CPU_REPORT;
import static org.flowbuf.pipeconf.HhP4Names.ENABLED;
import static org.flowbuf.pipeconf.HhP4Names.IDLE_US;
import static org.flowbuf.pipeconf.HhP4Names.MIN_BYTES;
import static org.flowbuf.pipeconf.HhP4Names.MIN_US;
import static org.flowbuf.pipeconf.HhP4Names.OBSERVATION;
import static org.flowbuf.pipeconf.HhP4Names.SETTINGS;
import static org.flowbuf.pipeconf.HhP4Names.SET_CPU_REPORT;
import static org.flowbuf.pipeconf.HhP4Names.SET_HH;
import static org.flowbuf.pipeconf.HhP4Names.SET_OBSERVATION;
import static org.flowbuf.pipeconf.HhP4Names.THRESHOLD;

/**
 * The heavy-hitter detector's flow rules: hh_settings' and
 * hh_observation's default actions.
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
        return defaultAction(device, SETTINGS, PiAction.builder().withId(SET_HH)
                .withParameter(new PiActionParam(THRESHOLD, threshold))
                .withParameter(new PiActionParam(IDLE_US, settings.idleUs())).build());
    }

    /**
     * hh_observation's default action for the settings' minimum observation
     * (0, 0 when it is 0).
     *
     * @param device   the switch
     * @param settings settings
     * @return the rule (write it as the table's default action)
     */
    public FlowRule observation(DeviceId device, HeavyHitterSettings settings) {
        return defaultAction(device, OBSERVATION, PiAction.builder().withId(SET_OBSERVATION)
                .withParameter(new PiActionParam(MIN_US, settings.minObserveUs()))
                .withParameter(new PiActionParam(MIN_BYTES, settings.minWindowBytes())).build());
    }

    /**
     * Both rules, the observation first: a switch never reports on new
     * settings with the old observation.
     *
     * @param device   the switch
     * @param settings settings
     * @return the rules (write each as its table's default action)
     */
    public List<FlowRule> all(DeviceId device, HeavyHitterSettings settings) {
        return List.of(observation(device, settings), settings(device, settings));
    }

    /**
     * hh_cpu_report's default action: whether each report also comes as a
     * packet-in (for a controller that takes no digests).
     *
     * @param device  the switch
     * @param enabled packet-ins too
     * @return the rule (write it as the table's default action)
     */
    public FlowRule cpuReport(DeviceId device, boolean enabled) {
        return defaultAction(device, CPU_REPORT, PiAction.builder().withId(SET_CPU_REPORT)
                .withParameter(new PiActionParam(ENABLED, enabled ? 1 : 0)).build());
    }

    private FlowRule defaultAction(DeviceId device, PiTableId table,
                                   PiAction action) {
        return DefaultFlowRule.builder().forDevice(device).forTable(table).fromApp(appId)
                .withPriority(0).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
