/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupProgrammable;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A device's groups as its driver's {@link GroupProgrammable} reads them:
 * for P4Runtime, ONOS's mirror of the device's multicast groups and clone
 * sessions, which each write the device accepted updates at once (ONOS's
 * group store learns them only at its next poll).
 */
public final class DriverGroups implements GroupWrites.DeviceGroups {

    private final DeviceService devices;

    /**
     * Reads through the devices' drivers.
     *
     * @param devices ONOS device service
     */
    public DriverGroups(DeviceService devices) {
        this.devices = Objects.requireNonNull(devices);
    }

    @Override
    public Collection<Group> groups(DeviceId deviceId) {
        Device device = devices.getDevice(deviceId);
        if (device == null || !device.is(GroupProgrammable.class)) {
            return List.of();
        }
        return device.as(GroupProgrammable.class).getGroups();
    }
}
