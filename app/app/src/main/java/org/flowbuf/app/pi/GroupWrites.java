/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupService;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Groups (multicast groups, clone sessions) written through ONOS's
 * GroupService and waited for until the device has them: added, or given
 * the wanted buckets, or removed.
 *
 * <p>ONOS's group store alone confirms too late: with a P4Runtime device
 * it marks a group ADDED (or drops a removed one) only when it next polls
 * the device's groups, every 30 s by default (fallbackGroupPollFrequency),
 * and its P4Runtime driver reports no refusal at all. The driver's own view
 * ({@link DeviceGroups}: for P4Runtime, ONOS's mirror of what each write
 * the device accepted put there) confirms as soon as the write is done.
 */
public final class GroupWrites {

    // How often the group store is read again when no event arrives.
    private static final long POLL_MILLIS = 50;

    private final ApplicationId appId;
    private final GroupService groups;
    private final DeviceGroups onDevice;
    private final Duration timeout;

    /** The groups a device has, as its driver knows them now. */
    @FunctionalInterface
    public interface DeviceGroups {
        /**
         * The device's groups.
         *
         * @param deviceId device
         * @return its groups, none when the driver cannot tell
         */
        Collection<Group> groups(DeviceId deviceId);
    }

    /**
     * Creates the writer.
     *
     * @param appId    owner of the groups
     * @param groups   ONOS group service
     * @param onDevice the groups each device's driver knows it has
     * @param timeout  how long to wait for the device to confirm a change
     */
    public GroupWrites(ApplicationId appId, GroupService groups, DeviceGroups onDevice,
                       Duration timeout) {
        this.appId = Objects.requireNonNull(appId);
        this.groups = Objects.requireNonNull(groups);
        this.onDevice = Objects.requireNonNull(onDevice);
        this.timeout = Objects.requireNonNull(timeout);
    }

    /**
     * Adds a group, or sets its buckets when it has others.
     *
     * @param description the group as wanted
     * @param what        what it is, for the error
     * @throws FlowBufException UNAVAILABLE when the device refuses or does not confirm
     */
    public void write(GroupDescription description, String what) {
        DeviceId deviceId = description.deviceId();
        GroupKey key = description.appCookie();
        GroupBuckets buckets = description.buckets();
        Predicate<Group> done = g -> g != null && (g.state() == Group.GroupState.ADDED
                && sameBuckets(g.buckets(), buckets) || onDevice(deviceId, g, buckets));
        Group existing = groups.getGroup(deviceId, key);
        if (existing == null) {
            change(deviceId, key, () -> groups.addGroup(description), done,
                   GroupEvent.Type.GROUP_ADD_FAILED, "add " + what);
        } else if (!done.test(existing)) {
            change(deviceId, key,
                   () -> groups.setBucketsForGroup(deviceId, key, buckets, key, appId), done,
                   GroupEvent.Type.GROUP_UPDATE_FAILED, "set the buckets of " + what);
        }
    }

    /**
     * Removes a group; one the device does not have is fine.
     *
     * @param deviceId device
     * @param key      the group's key
     * @param what     what it is, for the error
     * @throws FlowBufException UNAVAILABLE when the device refuses or does not confirm
     */
    public void remove(DeviceId deviceId, GroupKey key, String what) {
        Group existing = groups.getGroup(deviceId, key);
        if (existing == null) {
            return;
        }
        // The store keeps a removed group (PENDING_DELETE) until its next poll.
        change(deviceId, key, () -> groups.removeGroup(deviceId, key, appId),
               g -> g == null || g.state() == Group.GroupState.PENDING_DELETE
                       && !onDevice(deviceId, existing, null),
               GroupEvent.Type.GROUP_REMOVE_FAILED, "remove " + what);
    }

    // Whether the driver has the group (with these buckets, unless null).
    private boolean onDevice(DeviceId deviceId, Group group, GroupBuckets buckets) {
        return onDevice.groups(deviceId).stream().anyMatch(
                g -> g.id().equals(group.id())
                        && (buckets == null || sameBuckets(g.buckets(), buckets)));
    }

    // The store may keep buckets in another order than they were given.
    private static boolean sameBuckets(GroupBuckets stored, GroupBuckets wanted) {
        return stored != null && stored.buckets().size() == wanted.buckets().size()
                && new HashSet<>(stored.buckets()).equals(new HashSet<>(wanted.buckets()));
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
