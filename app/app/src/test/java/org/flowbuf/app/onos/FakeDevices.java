/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onlab.packet.ChassisId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.provider.ProviderId;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * ONOS's device service as a FlowBuf component sees it: the switches
 * available now (in the order a test made them so) and the listeners
 * their events reach. A component's test posts the events.
 */
final class FakeDevices extends DeviceServiceAdapter {

    private static final ProviderId PID = new ProviderId("p4runtime", "org.flowbuf.test");

    /** The switches available, in the order they became so. */
    final Set<DeviceId> available = new CopyOnWriteArraySet<>();
    /** The listeners a component added and has not removed. */
    final List<DeviceListener> listeners = new CopyOnWriteArrayList<>();
    private final Function<DeviceId, Device> describe;

    /** Plain switches, known while available. */
    FakeDevices() {
        this(FakeDevices::device);
    }

    /** Switches as {@code describe} tells them, known while available. */
    FakeDevices(Function<DeviceId, Device> describe) {
        this.describe = describe;
    }

    /** A switch with no annotations. */
    static Device device(DeviceId id) {
        return new DefaultDevice(PID, id, Device.Type.SWITCH, "", "", "", "", new ChassisId(1));
    }

    /** Makes these switches available without an event, as before a component starts. */
    FakeDevices with(DeviceId... ids) {
        available.addAll(List.of(ids));
        return this;
    }

    /** A switch available again: ONOS's DEVICE_AVAILABILITY_CHANGED reaches the listeners. */
    void comesBack(DeviceId id) {
        available.add(id);
        post(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, id);
    }

    /** A switch ONOS learns of: DEVICE_ADDED reaches the listeners. */
    void arrives(DeviceId id) {
        available.add(id);
        post(DeviceEvent.Type.DEVICE_ADDED, id);
    }

    /** An event about a switch, to the listeners it is relevant to. */
    void post(DeviceEvent.Type type, DeviceId id) {
        post(new DeviceEvent(type, describe.apply(id)));
    }

    /** An event, to the listeners it is relevant to, in the order they were added. */
    void post(DeviceEvent e) {
        listeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    @Override
    public Device getDevice(DeviceId id) {
        return available.contains(id) ? describe.apply(id) : null;
    }

    @Override
    public Iterable<Device> getAvailableDevices() {
        return available.stream().map(describe).filter(Objects::nonNull)
                .collect(Collectors.toList());
    }

    @Override
    public boolean isAvailable(DeviceId id) {
        return available.contains(id);
    }

    @Override
    public void addListener(DeviceListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(DeviceListener listener) {
        listeners.remove(listener);
    }
}
