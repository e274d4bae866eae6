/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupService;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

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

    // How often the group store is read again when no event arrives.
    private static final long POLL_MILLIS = 50;

    private final ApplicationId appId;
    private final GroupService groups;
    private final Duration timeout;

    /**
     * Creates the writer.
     *
     * @param appId   owner of the groups
     * @param groups  ONOS group service
     * @param timeout how long to wait for the device to confirm a change
     */
    public GroupServiceMulticastWriter(ApplicationId appId, GroupService groups,
                                       Duration timeout) {
        this.appId = Objects.requireNonNull(appId);
        this.groups = Objects.requireNonNull(groups);
        this.timeout = Objects.requireNonNull(timeout);
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

    // The store may keep buckets in another order than they were given.
    private static boolean sameBuckets(GroupBuckets stored, GroupBuckets wanted) {
        return stored != null && stored.buckets().size() == wanted.buckets().size()
                && new HashSet<>(stored.buckets()).equals(new HashSet<>(wanted.buckets()));
    }

    @Override
    public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
        Objects.requireNonNull(deviceId);
        GroupDescription description = groupDescription(appId, deviceId, groupId, ports);
        GroupKey key = description.appCookie();
        GroupBuckets buckets = description.buckets();
        Predicate<Group> done = g -> g != null && g.state() == Group.GroupState.ADDED
                && sameBuckets(g.buckets(), buckets);
        Group existing = groups.getGroup(deviceId, key);
        if (existing == null) {
            change(deviceId, key, () -> groups.addGroup(description), done,
                   GroupEvent.Type.GROUP_ADD_FAILED, "add multicast group " + groupId);
        } else if (!done.test(existing)) {
            change(deviceId, key,
                   () -> groups.setBucketsForGroup(deviceId, key, buckets, key, appId), done,
                   GroupEvent.Type.GROUP_UPDATE_FAILED, "set the ports of multicast group "
                           + groupId);
        }
    }

    @Override
    public void remove(DeviceId deviceId, int groupId) {
        Objects.requireNonNull(deviceId);
        SteeringRule.requireMulticastGroup(groupId);
        GroupKey key = groupKey(groupId);
        if (groups.getGroup(deviceId, key) == null) {
            return;
        }
        change(deviceId, key, () -> groups.removeGroup(deviceId, key, appId), Objects::isNull,
               GroupEvent.Type.GROUP_REMOVE_FAILED, "remove multicast group " + groupId);
    }

    // Applies a change and waits until the store shows it done (re-read on
    // every event of the group and every POLL_MILLIS), or ONOS reports that
    // the device refused it, or the timeout passes. The listener is added
    // before the change so that no event is missed.
    private void change(DeviceId deviceId, GroupKey key, Runnable operation,
                        Predicate<Group> done, GroupEvent.Type failed, String what) {
        BlockingQueue<GroupEvent> events = new LinkedBlockingQueue<>();
        GroupListener listener = event -> {
            Group subject = event.subject();
            if (subject != null && deviceId.equals(subject.deviceId())
                    && key.equals(subject.appCookie())) {
                events.add(event);
            }
        };
        groups.addListener(listener);
        try {
            operation.run();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!done.test(groups.getGroup(deviceId, key))) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                               deviceId + " did not confirm: " + what + " within "
                                                       + timeout.toMillis() + " ms");
                }
                GroupEvent event = events.poll(
                        Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)),
                        TimeUnit.NANOSECONDS);
                if (event != null && event.type() == failed) {
                    throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                               deviceId + " refused to " + what);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "interrupted while waiting to " + what, e);
        } finally {
            groups.removeListener(listener);
        }
    }
}
