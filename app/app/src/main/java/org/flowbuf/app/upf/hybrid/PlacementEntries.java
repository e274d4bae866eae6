/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.flowbuf.app.upf.TunnelPeer;
import org.flowbuf.app.upf.UpfEntries;
import org.flowbuf.app.upf.UpfSessionRecord;
import org.flowbuf.pipeconf.HybridP4Names;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.flowbuf.pipeconf.UpfP4Names.DOWNLINK_SESSIONS;
import static org.flowbuf.pipeconf.UpfP4Names.DOWNLINK_TERMINATIONS;

/**
 * What a promotion writes on the fast path: the UE's downlink session and
 * default termination as the slow path has them (the same counter cells,
 * so that its rate is read where it runs), and the tunnel peer they name.
 * The uplink stays on the slow path.
 */
public final class PlacementEntries {

    private final ApplicationId appId;

    PlacementEntries(ApplicationId appId) {
        this.appId = appId;
    }

    /**
     * The UE's downlink entries on the fast path.
     *
     * @param fast   the fast-path switch
     * @param record the session on the slow path
     * @return its downlink session and default termination
     */
    List<FlowRule> downlink(DeviceId fast, UpfSessionRecord record) {
        return UpfEntries.sessionRules(appId, record).stream()
                .filter(r -> r.table().equals(DOWNLINK_SESSIONS)
                        || r.table().equals(DOWNLINK_TERMINATIONS))
                .map(r -> onDevice(r, fast)).collect(Collectors.toList());
    }

    /**
     * The tunnel peer the UE's downlink session names, on the fast path.
     *
     * @param fast   the fast-path switch
     * @param record the session on the slow path
     * @return rule
     */
    FlowRule tunnelPeer(DeviceId fast, UpfSessionRecord record) {
        return UpfEntries.tunnelPeerRule(appId, fast, record.tunnelPeer(),
                                         TunnelPeer.of(record.session()));
    }

    /**
     * slow_path's default action: misses out of the port, or dropped.
     *
     * @param fast     the fast-path switch
     * @param slowPort its port to the slow path, empty for none
     * @return the rule (write it as the table's default action)
     */
    FlowRule slowPath(DeviceId fast, Optional<PortNumber> slowPort) {
        return slowPath(appId, fast, slowPort);
    }

    /**
     * slow_path's default action: misses out of the port, or dropped.
     *
     * @param appId    owner
     * @param fast     the fast-path switch
     * @param slowPort its port to the slow path, empty for none
     * @return the rule (write it as the table's default action)
     */
    public static FlowRule slowPath(ApplicationId appId, DeviceId fast,
                                    Optional<PortNumber> slowPort) {
        PiAction action = slowPort.map(p -> PiAction.builder().withId(HybridP4Names.TO_SLOW_PATH)
                        .withParameter(new PiActionParam(HybridP4Names.PORT, p.toLong())).build())
                .orElse(PiAction.builder().withId(HybridP4Names.NO_ACTION).build());
        return DefaultFlowRule.builder().forDevice(fast).forTable(HybridP4Names.SLOW_PATH)
                .fromApp(appId).withPriority(0).makePermanent()
                .withSelector(DefaultTrafficSelector.builder().build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }

    private FlowRule onDevice(FlowRule r, DeviceId device) {
        return DefaultFlowRule.builder().forDevice(device).forTable(r.table()).fromApp(appId)
                .withPriority(r.priority()).makePermanent().withSelector(r.selector())
                .withTreatment(r.treatment()).build();
    }
}
