/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onosproject.app.ApplicationServiceAdapter;
import org.onosproject.app.ApplicationState;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.provider.ProviderId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * FlowBuf's rules and groups leave the switches with the app (deactivated
 * or uninstalled), and stay while ONOS only stops (the app still ACTIVE):
 * a restart must not let paused flows out of their buffers.
 */
public class LeftoversTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.flowbuf.app");
    private static final ApplicationId OTHER = new DefaultApplicationId(8, "org.other.app");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    private final List<String> calls = new ArrayList<>();
    private ApplicationState state;

    private final ApplicationServiceAdapter apps = new ApplicationServiceAdapter() {
        @Override
        public ApplicationState getState(ApplicationId appId) {
            return APP.equals(appId) ? state : null;
        }
    };

    private final FlowRuleServiceAdapter flowRules = new FlowRuleServiceAdapter() {
        @Override
        public void removeFlowRulesById(ApplicationId appId) {
            calls.add("remove rules of " + appId.name());
        }
    };

    private static Group group(DeviceId device, int id, ApplicationId owner) {
        GroupKey key = new DefaultGroupKey(("g" + id).getBytes());
        return new DefaultGroup(new GroupId(id), new DefaultGroupDescription(
                device, GroupDescription.Type.ALL, new GroupBuckets(List.of()), key, id, owner));
    }

    // Two devices; each has a FlowBuf group and s1 another app's.
    private final Map<DeviceId, List<Group>> stored = Map.of(
            S1, List.of(group(S1, 1, APP), group(S1, 2, OTHER)),
            S2, List.of(group(S2, 3, APP)));

    private final GroupServiceAdapter groups = new GroupServiceAdapter() {
        @Override
        public Iterable<Group> getGroups(DeviceId deviceId, ApplicationId appId) {
            List<Group> owned = new ArrayList<>();
            stored.getOrDefault(deviceId, List.of()).stream()
                    .filter(g -> g.appId().equals(appId)).forEach(owned::add);
            return owned;
        }

        @Override
        public void removeGroup(DeviceId deviceId, GroupKey key, ApplicationId appId) {
            calls.add("remove group " + new String(key.key()) + " of " + deviceId + " as "
                              + appId.name());
        }
    };

    private final DeviceServiceAdapter devices = new DeviceServiceAdapter() {
        @Override
        public Iterable<Device> getDevices() {
            return List.of(device(S1), device(S2));
        }
    };

    private static Device device(DeviceId id) {
        return new DefaultDevice(ProviderId.NONE, id, Device.Type.SWITCH, "m", "h", "s", "n",
                                 new ChassisId());
    }

    private final Leftovers leftovers = new Leftovers(APP, apps, flowRules, groups, devices);

    @Test
    public void aDeactivatedAppLeavesNoRuleAndNoGroupOfItsOwn() {
        state = ApplicationState.INSTALLED;
        assertTrue(leftovers.appGoingAway());
        assertTrue(leftovers.removeIfAppGoingAway());
        assertEquals(List.of("remove group g1 of device:s1 as org.flowbuf.app",
                             "remove group g3 of device:s2 as org.flowbuf.app",
                             "remove rules of org.flowbuf.app"), calls);
    }

    @Test
    public void anUninstalledAppIsGoingAwayToo() {
        state = null; // ONOS no longer knows the app
        leftovers.removeIfAppGoingAway();
        assertEquals(3, calls.size());
    }

    @Test
    public void onosStoppingLeavesEverythingInPlace() {
        state = ApplicationState.ACTIVE;
        assertFalse(leftovers.appGoingAway());
        assertFalse(leftovers.removeIfAppGoingAway());
        assertEquals(List.of(), calls);
    }
}
