/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.app.ApplicationService;
import org.onosproject.app.ApplicationState;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.Device;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupService;
import org.slf4j.Logger;

import java.util.Objects;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * What FlowBuf leaves on the switches when ONOS deactivates or uninstalls
 * it: nothing. ONOS 2.7 removes no app's flow rules or groups by itself;
 * every FlowBuf component writes under the one app id, so its rules and
 * groups are removed by that id. Only when the app is going away: when ONOS
 * merely stops (a restart), the app stays ACTIVE and the switches keep
 * steering paused flows into their buffers until ONOS is back.
 *
 * <p>Run by the pipeconf's bundle before it unregisters the pipeconf:
 * Karaf stops that bundle before the app's, and without the pipeconf ONOS
 * can neither translate nor remove the PI rules written with it (seen
 * live: removed after the pipeconf went, every rule stayed on the switch).
 */
final class Leftovers {

    private final Logger log = getLogger(getClass());
    private final ApplicationId appId;
    private final ApplicationService apps;
    private final FlowRuleService flowRules;
    private final GroupService groups;
    private final DeviceService devices;

    Leftovers(ApplicationId appId, ApplicationService apps, FlowRuleService flowRules,
              GroupService groups, DeviceService devices) {
        this.appId = Objects.requireNonNull(appId);
        this.apps = Objects.requireNonNull(apps);
        this.flowRules = Objects.requireNonNull(flowRules);
        this.groups = Objects.requireNonNull(groups);
        this.devices = Objects.requireNonNull(devices);
    }

    /**
     * Whether ONOS is taking the app away (deactivated, uninstalled), not
     * just stopping its components.
     *
     * @return true unless ONOS still holds the app ACTIVE
     */
    boolean appGoingAway() {
        return apps.getState(appId) != ApplicationState.ACTIVE;
    }

    /**
     * Removes the app's flow rules and groups from every device, if it is
     * going away.
     *
     * @return whether it removed (the app was going away)
     */
    boolean removeIfAppGoingAway() {
        if (!appGoingAway()) {
            return false;
        }
        int removedGroups = 0;
        for (Device device : devices.getDevices()) {
            for (Group group : groups.getGroups(device.id(), appId)) {
                groups.removeGroup(device.id(), group.appCookie(), appId);
                removedGroups++;
            }
        }
        flowRules.removeFlowRulesById(appId);
        log.info("{} deactivated: its flow rules and {} groups removed", appId.name(),
                 removedGroups);
        return true;
    }

    /**
     * Whether ONOS still holds any of the app's flow rules.
     *
     * @return true while one is left
     */
    boolean rulesLeft() {
        return flowRules.getFlowEntriesById(appId).iterator().hasNext();
    }
}
