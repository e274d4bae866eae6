/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupService;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes multicast groups through ONOS's GroupService: a group of type ALL
 * with the given group id and one bucket per port whose treatment only
 * sets the output port. On P4Runtime devices ONOS translates such a group
 * into a packet replication engine multicast group entry (one replica per
 * bucket). Like {@link FlowRuleServiceSteeringWriter}, each call waits,
 * bounded, until ONOS reports the device has the change.
 * Must not be called from an ONOS event thread (it waits for group events).
 */
public final class GroupServiceMulticastWriter implements MulticastGroupWriter {

    private final ApplicationId appId;
    private final GroupWrites groupWrites;

    /**
     * Creates the writer.
     *
     * @param appId    owner of the groups
     * @param groups   ONOS group service
     * @param onDevice the groups each device's driver knows it has
     * @param timeout  how long to wait for the device to confirm a change
     */
    public GroupServiceMulticastWriter(ApplicationId appId, GroupService groups,
                                       GroupWrites.DeviceGroups onDevice, Duration timeout) {
        this.appId = Objects.requireNonNull(appId);
        this.groupWrites = new GroupWrites(appId, groups, onDevice, timeout);
    }

    /**
     * The ONOS group key (app cookie) of a multicast group: derived from the
     * group id, so that a write and a later remove name the same group.
     *
     * @param groupId multicast group id
     * @return group key
     */
    public static GroupKey groupKey(int groupId) {
        return new DefaultGroupKey(("flowbuf-mcast-" + groupId).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The ALL group description of a multicast group.
     *
     * @param appId    owner of the group
     * @param deviceId device
     * @param groupId  multicast group id
     * @param ports    the group's ports
     * @return group description: type ALL, group id groupId, one output-only
     *         bucket per port in the given order
     * @throws FlowBufException INVALID for a bad group id or ports (see
     *                          {@link SteeringFlowRules#multicastPorts})
     */
    public static GroupDescription groupDescription(ApplicationId appId, DeviceId deviceId,
                                                    int groupId, List<PortNumber> ports) {
        return new DefaultGroupDescription(deviceId, GroupDescription.Type.ALL,
                                           buckets(groupId, ports), groupKey(groupId), groupId,
                                           appId);
    }

    private static GroupBuckets buckets(int groupId, List<PortNumber> ports) {
        List<GroupBucket> buckets = new ArrayList<>();
        for (long port : SteeringFlowRules.multicastPorts(groupId, ports)) {
            buckets.add(DefaultGroupBucket.createAllGroupBucket(
                    DefaultTrafficTreatment.builder()
                            .setOutput(PortNumber.portNumber(port)).build()));
        }
        return new GroupBuckets(buckets);
    }

    @Override
    public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
        Objects.requireNonNull(deviceId);
        groupWrites.write(groupDescription(appId, deviceId, groupId, ports),
                          "multicast group " + groupId);
    }

    @Override
    public void remove(DeviceId deviceId, int groupId) {
        Objects.requireNonNull(deviceId);
        SteeringRule.requireMulticastGroup(groupId);
        groupWrites.remove(deviceId, groupKey(groupId), "multicast group " + groupId);
    }
}
