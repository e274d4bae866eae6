/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** ONOS's group service as the switches' groups (clone sessions, multicast), keyed by cookie. */
final class FakeGroups extends GroupServiceAdapter {

    /** The groups added and not removed. */
    final Map<GroupKey, Group> groups = new ConcurrentHashMap<>();

    @Override
    public void addGroup(GroupDescription d) {
        DefaultGroup g = new DefaultGroup(GroupId.valueOf(d.givenGroupId()), d);
        g.setState(Group.GroupState.ADDED);
        groups.put(d.appCookie(), g);
    }

    @Override
    public Group getGroup(DeviceId deviceId, GroupKey appCookie) {
        return groups.get(appCookie);
    }

    @Override
    public void removeGroup(DeviceId deviceId, GroupKey appCookie, ApplicationId appId) {
        groups.remove(appCookie);
    }
}
