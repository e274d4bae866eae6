/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.app.apps.gnb.GnbTableWriter;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/**
 * A gNodeB's entries through ONOS: clone sessions as CLONE groups through
 * the GroupService, entries through the FlowRuleService, each change waited
 * for until the device has it.
 */
public final class FlowRuleServiceGnbWriter implements GnbTableWriter {

    private final ApplicationId appId;
    private final FlowRuleBatches rules;
    private final GroupWrites groups;

    /**
     * Creates the writer.
     *
     * @param appId  owner of the groups
     * @param rules  the flow rule batches
     * @param groups the group writes
     */
    public FlowRuleServiceGnbWriter(ApplicationId appId, FlowRuleBatches rules, GroupWrites groups) {
        this.appId = Objects.requireNonNull(appId);
        this.rules = Objects.requireNonNull(rules);
        this.groups = Objects.requireNonNull(groups);
    }

    @Override
    public void write(DeviceId deviceId, Map<Integer, Long> cloneSessions,
                      Collection<FlowRule> entries) {
        cloneSessions.forEach((id, port) -> groups.write(
                CloneSessions.toPort(appId, deviceId, id, PortNumber.portNumber(port)),
                "the BaaS clone session " + id + " of " + deviceId));
        rules.add(entries, "write " + entries.size() + " gNodeB entries to " + deviceId);
    }

    @Override
    public void remove(DeviceId deviceId, Collection<Integer> cloneSessions,
                       Collection<FlowRule> entries) {
        rules.remove(entries, "remove " + entries.size() + " gNodeB entries of " + deviceId);
        cloneSessions.forEach(id -> groups.remove(deviceId, CloneSessions.groupKey(id),
                                                  "the BaaS clone session " + id + " of " + deviceId));
    }
}
