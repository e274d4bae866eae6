/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.junit.After;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBucket;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupEvent;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupListener;
import org.onosproject.net.group.GroupServiceAdapter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Multicast groups become ONOS ALL groups with one output-only bucket per
 * port; the writer returns once the group store shows the device has them,
 * and fails when ONOS reports a refusal or never confirms.
 */
public class GroupServiceMulticastWriterTest {

    private static final ApplicationId APP = new DefaultApplicationId(3, "org.flowbuf.app");
    private static final DeviceId DEVICE = DeviceId.deviceId("device:sa");
    private static final List<PortNumber> PORTS =
            List.of(PortNumber.portNumber(2), PortNumber.portNumber(3));

    /**
     * What the fake device does with each change: CONFIRM (the store shows
     * it a moment later), REFUSE, NEVER, or, as ONOS 2.7's P4Runtime driver
     * does, ACCEPT_UNPOLLED: the device takes it and the driver's mirror
     * shows it at once, but the group store learns of it only at its next
     * poll (30 s by default), never within a test.
     */
    private enum Answer { CONFIRM, REFUSE, NEVER, ACCEPT_UNPOLLED }

    /**
     * A group store whose device answers a moment later, on another thread,
     * as ONOS does: the group is PENDING_* until then.
     */
    private static final class FakeGroups extends GroupServiceAdapter {
        private final ScheduledExecutorService device =
                Executors.newSingleThreadScheduledExecutor();
        private final Map<GroupKey, DefaultGroup> store = new ConcurrentHashMap<>();
        private final List<GroupListener> listeners = new CopyOnWriteArrayList<>();
        private final List<String> calls = new CopyOnWriteArrayList<>();
        private final List<GroupDescription> added = new CopyOnWriteArrayList<>();
        // The driver's view of the device (P4Runtime: ONOS's mirror).
        private final Map<GroupId, Group> mirror = new ConcurrentHashMap<>();
        private volatile Answer answer = Answer.CONFIRM;

        Collection<Group> onDevice(DeviceId deviceId) {
            return deviceId.equals(DEVICE) ? List.copyOf(mirror.values()) : List.of();
        }

        @Override
        public void addGroup(GroupDescription description) {
            calls.add("add");
            added.add(description);
            DefaultGroup group = new DefaultGroup(new GroupId(description.givenGroupId()),
                                                  description);
            group.setState(Group.GroupState.PENDING_ADD);
            store.put(description.appCookie(), group);
            answerLater(group, GroupEvent.Type.GROUP_ADDED, GroupEvent.Type.GROUP_ADD_FAILED);
        }

        @Override
        public void setBucketsForGroup(DeviceId deviceId, GroupKey oldCookie,
                                       GroupBuckets buckets, GroupKey newCookie,
                                       ApplicationId appId) {
            calls.add("set");
            DefaultGroup old = store.get(oldCookie);
            DefaultGroup group = new DefaultGroup(old.id(), new DefaultGroupDescription(
                    deviceId, old.type(), buckets, newCookie, old.givenGroupId(), appId));
            group.setState(Group.GroupState.PENDING_UPDATE);
            store.put(newCookie, group);
            answerLater(group, GroupEvent.Type.GROUP_UPDATED,
                        GroupEvent.Type.GROUP_UPDATE_FAILED);
        }

        @Override
        public void removeGroup(DeviceId deviceId, GroupKey key, ApplicationId appId) {
            calls.add("remove");
            DefaultGroup group = store.get(key);
            group.setState(Group.GroupState.PENDING_DELETE);
            Answer now = answer;
            if (now == Answer.NEVER) {
                return;
            }
            device.schedule(() -> {
                if (now == Answer.ACCEPT_UNPOLLED) {
                    mirror.remove(group.id());
                    return;
                }
                if (now == Answer.CONFIRM) {
                    mirror.remove(group.id());
                    store.remove(key);
                }
                post(new GroupEvent(now == Answer.CONFIRM ? GroupEvent.Type.GROUP_REMOVED
                                            : GroupEvent.Type.GROUP_REMOVE_FAILED, group));
            }, 20, TimeUnit.MILLISECONDS);
        }

        @Override
        public Group getGroup(DeviceId deviceId, GroupKey key) {
            return deviceId.equals(DEVICE) ? store.get(key) : null;
        }

        @Override
        public void addListener(GroupListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(GroupListener listener) {
            listeners.remove(listener);
        }

        private void answerLater(DefaultGroup group, GroupEvent.Type ok,
                                 GroupEvent.Type failed) {
            Answer now = answer;
            if (now == Answer.NEVER) {
                return;
            }
            device.schedule(() -> {
                if (now != Answer.REFUSE) {
                    mirror.put(group.id(), group);
                }
                if (now == Answer.ACCEPT_UNPOLLED) {
                    return;
                }
                if (now == Answer.CONFIRM) {
                    group.setState(Group.GroupState.ADDED);
                }
                post(new GroupEvent(now == Answer.CONFIRM ? ok : failed, group));
            }, 20, TimeUnit.MILLISECONDS);
        }

        private void post(GroupEvent event) {
            listeners.forEach(l -> l.event(event));
        }
    }

    private final FakeGroups groups = new FakeGroups();
    private final GroupServiceMulticastWriter writer =
            new GroupServiceMulticastWriter(APP, groups, groups::onDevice,
                                            Duration.ofMillis(500));

    @After
    public void stopDevice() {
        groups.device.shutdownNow();
    }

    private static List<PortNumber> outputs(GroupBuckets buckets) {
        List<PortNumber> ports = new ArrayList<>();
        for (GroupBucket bucket : buckets.buckets()) {
            assertEquals(GroupDescription.Type.ALL, bucket.type());
            List<Instruction> instructions = bucket.treatment().allInstructions();
            assertEquals("a bucket only sets the output: " + instructions, 1,
                         instructions.size());
            ports.add(((Instructions.OutputInstruction) instructions.get(0)).port());
        }
        return ports;
    }

    @Test
    public void aNewGroupIsAnAllGroupWithOneOutputBucketPerPort() {
        writer.write(DEVICE, 7, PORTS);
        assertEquals(List.of("add"), groups.calls);
        GroupDescription d = groups.added.get(0);
        assertEquals(GroupDescription.Type.ALL, d.type());
        assertEquals(Integer.valueOf(7), d.givenGroupId());
        assertEquals(DEVICE, d.deviceId());
        assertEquals(APP, d.appId());
        assertEquals(GroupServiceMulticastWriter.groupKey(7), d.appCookie());
        assertEquals(PORTS, outputs(d.buckets()));
        Group stored = groups.getGroup(DEVICE, GroupServiceMulticastWriter.groupKey(7));
        assertEquals("the writer returned before the device confirmed",
                     Group.GroupState.ADDED, stored.state());
        assertEquals(new GroupId(7), stored.id());
    }

    @Test
    public void writingAnExistingGroupReplacesItsPorts() {
        writer.write(DEVICE, 7, PORTS);
        List<PortNumber> moved = List.of(PortNumber.portNumber(3), PortNumber.portNumber(4),
                                         PortNumber.portNumber(5));
        writer.write(DEVICE, 7, moved);
        assertEquals(List.of("add", "set"), groups.calls);
        Group stored = groups.getGroup(DEVICE, GroupServiceMulticastWriter.groupKey(7));
        assertEquals(Group.GroupState.ADDED, stored.state());
        assertEquals(moved, outputs(stored.buckets()));
        writer.write(DEVICE, 7, moved);
        assertEquals("the same ports again change nothing", List.of("add", "set"), groups.calls);
    }

    @Test
    public void whatTheDriverWroteIsConfirmedBeforeTheStorePollsTheDevice() {
        groups.answer = Answer.ACCEPT_UNPOLLED;
        long start = System.nanoTime();
        writer.write(DEVICE, 7, PORTS);
        List<PortNumber> moved = List.of(PortNumber.portNumber(4));
        writer.write(DEVICE, 7, moved);
        Group stored = groups.getGroup(DEVICE, GroupServiceMulticastWriter.groupKey(7));
        assertEquals("the store has not polled the device", Group.GroupState.PENDING_UPDATE,
                     stored.state());
        assertEquals(moved, outputs(groups.mirror.get(new GroupId(7)).buckets()));
        writer.remove(DEVICE, 7);
        assertTrue("the driver's view confirmed each change at once, not at the timeout",
                   System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(450));
        assertEquals(List.of("add", "set", "remove"), groups.calls);
        assertTrue(groups.mirror.isEmpty());
    }

    @Test
    public void groupsTheDeviceDoesNotShowAreNotConfirmed() {
        groups.answer = Answer.NEVER;
        assertUnavailable(() -> writer.write(DEVICE, 7, PORTS));
        groups.answer = Answer.ACCEPT_UNPOLLED;
        writer.write(DEVICE, 8, PORTS);
        // Other buckets on the device do not confirm a change of buckets.
        groups.answer = Answer.NEVER;
        assertUnavailable(() -> writer.write(DEVICE, 8, List.of(PortNumber.portNumber(4))));
        assertUnavailable(() -> writer.remove(DEVICE, 8));
    }

    @Test
    public void removeWaitsForTheDeviceAndAnAbsentGroupIsNoError() {
        writer.write(DEVICE, 9, PORTS);
        writer.remove(DEVICE, 9);
        assertNull(groups.getGroup(DEVICE, GroupServiceMulticastWriter.groupKey(9)));
        writer.remove(DEVICE, 9);
        writer.remove(DEVICE, 10);
        assertEquals(List.of("add", "remove"), groups.calls);
    }

    private static void assertUnavailable(Runnable call) {
        try {
            call.run();
            fail("an unconfirmed change must not look done");
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
    }

    @Test
    public void refusalsAndSilenceAreUnavailable() {
        groups.answer = Answer.REFUSE;
        long start = System.nanoTime();
        assertUnavailable(() -> writer.write(DEVICE, 7, PORTS));
        assertTrue("a refusal is reported when it arrives, not at the timeout",
                   System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(400));
        groups.answer = Answer.NEVER;
        assertUnavailable(() -> writer.write(DEVICE, 8, PORTS));

        groups.answer = Answer.CONFIRM;
        writer.write(DEVICE, 11, PORTS);
        groups.answer = Answer.REFUSE;
        assertUnavailable(() -> writer.write(DEVICE, 11, List.of(PortNumber.portNumber(4))));
        assertUnavailable(() -> writer.remove(DEVICE, 11));
        groups.answer = Answer.NEVER;
        assertUnavailable(() -> writer.remove(DEVICE, 11));
    }

    @Test
    public void badGroupsAreInvalidAndReachNoDevice() {
        List<PortNumber> one = List.of(PortNumber.portNumber(1));
        Map<String, Runnable> bad = Map.of(
                "group 0", () -> writer.write(DEVICE, 0, one),
                "group 65536", () -> writer.write(DEVICE, 65536, one),
                "negative group", () -> writer.write(DEVICE, -1, one),
                "no ports", () -> writer.write(DEVICE, 1, List.of()),
                "controller port", () -> writer.write(DEVICE, 1, List.of(PortNumber.CONTROLLER)),
                "flood", () -> writer.write(DEVICE, 1, List.of(PortNumber.FLOOD)),
                "port 0", () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(0))),
                "port wider than 9 bits",
                () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(512))),
                "repeated port", () -> writer.write(DEVICE, 1, List.of(PortNumber.portNumber(2),
                                                                       PortNumber.portNumber(2))),
                "remove group 0", () -> writer.remove(DEVICE, 0));
        for (Map.Entry<String, Runnable> c : bad.entrySet()) {
            try {
                c.getValue().run();
                fail(c.getKey() + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(c.getKey(), FlowBufException.Reason.INVALID, e.reason());
            }
        }
        assertEquals("nothing reached the group service", List.of(),
                     List.copyOf(groups.calls));
    }

    @Test
    public void theLargestGroupIdIsAccepted() {
        writer.write(DEVICE, 65535, PORTS);
        assertEquals(Integer.valueOf(65535), groups.added.get(0).givenGroupId());
    }
}
