/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.gnb;

import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbCell;
import org.flowbuf.app.config.GnbDeviceConfig.Bearer;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.flowbuf.pipeconf.GnbP4Names.BAAS_PORT;
import static org.flowbuf.pipeconf.GnbP4Names.BAAS_SESSION_BASE;
import static org.flowbuf.pipeconf.GnbP4Names.DOWNLINK_BEARERS;
import static org.flowbuf.pipeconf.GnbP4Names.FROM_BAAS;
import static org.flowbuf.pipeconf.GnbP4Names.FROM_RADIO;
import static org.flowbuf.pipeconf.GnbP4Names.FROM_UPF;
import static org.flowbuf.pipeconf.GnbP4Names.GNB_ADDR;
import static org.flowbuf.pipeconf.GnbP4Names.KEY_INGRESS_PORT;
import static org.flowbuf.pipeconf.GnbP4Names.KEY_TEID;
import static org.flowbuf.pipeconf.GnbP4Names.PORTS;
import static org.flowbuf.pipeconf.GnbP4Names.RADIO_PORT;
import static org.flowbuf.pipeconf.GnbP4Names.SET_DOWNLINK_BEARER;
import static org.flowbuf.pipeconf.GnbP4Names.SET_UPLINK_BEARER;
import static org.flowbuf.pipeconf.GnbP4Names.SN_INDEX;
import static org.flowbuf.pipeconf.GnbP4Names.UE_MAC;
import static org.flowbuf.pipeconf.GnbP4Names.UPF_ADDR;
import static org.flowbuf.pipeconf.GnbP4Names.UPF_PORT;
import static org.flowbuf.pipeconf.GnbP4Names.UPLINK_BEARERS;
import static org.flowbuf.pipeconf.GnbP4Names.UPLINK_TEID;

/**
 * The PI entries that make a device a gNodeB, from its "gnb" config: its
 * ports ({@link #entries}: the UPF port, each cell's radio and BaaS ports,
 * each bearer both ways) and the clone sessions that copy each cell's
 * downlink PDUs to its BaaS buffer ({@link #cloneSessions}).
 */
public final class GnbFlowRules {

    private static final int PRIORITY = 10;

    private GnbFlowRules() {
    }

    /**
     * The ports and bearer entries.
     *
     * @param appId    the app writing them
     * @param deviceId the device
     * @param config   its valid "gnb" config
     * @return flow rules
     */
    public static List<FlowRule> entries(ApplicationId appId, DeviceId deviceId, GnbDeviceConfig config) {
        List<FlowRule> rules = new ArrayList<>();
        rules.add(port(appId, deviceId, config.upfPort(), FROM_UPF));
        for (GnbCell cell : config.cells()) {
            rules.add(port(appId, deviceId, cell.radioPort(), FROM_RADIO));
            rules.add(port(appId, deviceId, cell.baasPort(), FROM_BAAS));
        }
        for (Bearer placed : config.bearers()) {
            GnbBearer b = placed.value();
            PiCriterion teid = PiCriterion.builder().matchExact(KEY_TEID, b.teid()).build();
            rules.add(rule(appId, deviceId, DOWNLINK_BEARERS, teid, PiAction.builder()
                    .withId(SET_DOWNLINK_BEARER)
                    .withParameter(new PiActionParam(SN_INDEX, placed.snIndex()))
                    .withParameter(new PiActionParam(RADIO_PORT, placed.cell().radioPort()))
                    .withParameter(new PiActionParam(BAAS_PORT, placed.cell().baasPort()))
                    .withParameter(new PiActionParam(UE_MAC, b.ueMac().toBytes())).build()));
            rules.add(rule(appId, deviceId, UPLINK_BEARERS, teid, PiAction.builder()
                    .withId(SET_UPLINK_BEARER)
                    .withParameter(new PiActionParam(UPLINK_TEID, b.uplinkTeid()))
                    .withParameter(new PiActionParam(GNB_ADDR, b.gnbAddress().toInt()))
                    .withParameter(new PiActionParam(UPF_ADDR, b.upfAddress().toInt()))
                    .withParameter(new PiActionParam(UPF_PORT, config.upfPort())).build()));
        }
        return rules;
    }

    /**
     * The clone sessions: session BAAS_SESSION_BASE + p copies to the BaaS
     * port p of each cell.
     *
     * @param config its valid "gnb" config
     * @return session id to its one egress port, in cell order
     */
    public static Map<Integer, Long> cloneSessions(GnbDeviceConfig config) {
        Map<Integer, Long> sessions = new LinkedHashMap<>();
        config.cells().forEach(c -> sessions.put((int) (BAAS_SESSION_BASE + c.baasPort()), c.baasPort()));
        return sessions;
    }

    private static FlowRule port(ApplicationId appId, DeviceId deviceId, long port, PiActionId role) {
        return rule(appId, deviceId, PORTS, PiCriterion.builder().matchExact(KEY_INGRESS_PORT, port).build(),
                    PiAction.builder().withId(role).build());
    }

    private static FlowRule rule(ApplicationId appId, DeviceId deviceId, PiTableId table,
                                 PiCriterion match, PiAction action) {
        return DefaultFlowRule.builder().forDevice(deviceId).forTable(table).fromApp(appId)
                .withPriority(PRIORITY).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
