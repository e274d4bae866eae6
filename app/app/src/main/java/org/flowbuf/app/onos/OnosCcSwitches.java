/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.app.congestion.CcRules;
import org.flowbuf.app.pi.CloneSessions;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.pi.GroupWrites;
import org.flowbuf.pipeconf.CcP4Names;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What congestion.p4 needs on a switch under ONOS, which takes no digests:
 * its switch id with switch-over reports by packet-in, the CPU clone
 * session the reports leave by, and per port towards another switch the
 * clone sessions of congestion notifications and end markers.
 */
final class OnosCcSwitches {

    private final ApplicationId appId;
    private final CcRules rules;
    private final FlowRuleBatches batches;
    private final GroupWrites groups;
    private final Function<DeviceId, Collection<Link>> egressLinks;

    OnosCcSwitches(ApplicationId appId, FlowRuleBatches batches, GroupWrites groups,
                   Function<DeviceId, Collection<Link>> egressLinks) {
        this.appId = Objects.requireNonNull(appId);
        this.rules = new CcRules(appId);
        this.batches = Objects.requireNonNull(batches);
        this.groups = Objects.requireNonNull(groups);
        this.egressLinks = Objects.requireNonNull(egressLinks);
    }

    /**
     * Writes it all (what the switch has is left or brought up to date).
     *
     * @param device the switch
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when the switch refuses
     */
    void prepare(DeviceId device) {
        batches.add(entries(device), "write the congestion switch id of " + device);
        groups.write(CloneSessions.toPort(appId, device, FlowBufP4Names.CPU_CLONE_SESSION_ID,
                                          PortNumber.CONTROLLER), "the CPU clone session");
        for (Link link : egressLinks.apply(device)) {
            PortNumber port = link.src().port();
            for (int base : new int[]{CcP4Names.NOTIFY_SESSION_BASE,
                                      CcP4Names.MARKER_SESSION_BASE}) {
                int session = Math.toIntExact(base + port.toLong());
                groups.write(CloneSessions.toPort(appId, device, session, port),
                             "clone session " + session);
            }
        }
    }

    /**
     * The table entries prepare writes on a switch: its switch id.
     *
     * @param device the switch
     * @return the entries
     */
    List<FlowRule> entries(DeviceId device) {
        return List.of(rules.switchId(device, switchId(device), true));
    }

    /**
     * A switch's id in notifications, markers and reports: from its device
     * id, the same on every controller instance. It only names the switch
     * to a reader; the controller knows a report's switch by where it came
     * from, so two switches that share an id lose nothing.
     *
     * @param device the switch
     * @return 1..65535
     */
    static int switchId(DeviceId device) {
        return Math.floorMod(device.toString().hashCode(), 0xffff) + 1;
    }
}
