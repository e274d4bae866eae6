/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.provider.ProviderId;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * The components' mastered switches: the action runs for the component's
 * available switches at the start when asked, again for one that is added
 * or available again, never for another's, and a failure stays in the log.
 */
public class MasteredSwitchesTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId OTHER = DeviceId.deviceId("device:other");

    private final List<DeviceListener> listeners = new ArrayList<>();
    private final List<String> ran = new ArrayList<>();
    private boolean s2Available = true;

    private static Device device(DeviceId id) {
        return new DefaultDevice(PID, id, Device.Type.SWITCH, "", "", "", "", new ChassisId(1));
    }

    private final DeviceServiceAdapter devices = new DeviceServiceAdapter() {
        @Override
        public Iterable<Device> getAvailableDevices() {
            return s2Available ? List.of(device(S1), device(S2), device(OTHER))
                    : List.of(device(S1), device(OTHER));
        }

        @Override
        public boolean isAvailable(DeviceId deviceId) {
            return !S2.equals(deviceId) || s2Available;
        }

        @Override
        public void addListener(DeviceListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(DeviceListener listener) {
            listeners.remove(listener);
        }
    };

    /** Runs the action at once (a direct executor) and records it; s1 fails. */
    private MasteredSwitches mastered() {
        return new MasteredSwitches(devices, Set.of(S1, S2)::contains, Runnable::run,
                                    (device, again) -> {
                                        ran.add(device + (again ? " again" : ""));
                                        if (S1.equals(device)) {
                                            throw new IllegalStateException("refused");
                                        }
                                    }, getLogger(MasteredSwitchesTest.class), "not done");
    }

    private void deliver(DeviceEvent.Type type, DeviceId device) {
        DeviceEvent event = new DeviceEvent(type, device(device));
        List.copyOf(listeners).stream().filter(l -> l.isRelevant(event))
                .forEach(l -> l.event(event));
    }

    @Test
    public void theAvailableSwitchesAtTheStartThenOnesThatComeBack() {
        MasteredSwitches mastered = mastered();
        mastered.start(true);
        assertEquals(List.of("device:s1", "device:s2"), ran);
        assertEquals(List.of(S1, S2), mastered.available());
        ran.clear();
        deliver(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, S2);
        deliver(DeviceEvent.Type.DEVICE_ADDED, OTHER);
        deliver(DeviceEvent.Type.PORT_UPDATED, S1);
        assertEquals(List.of("device:s2 again"), ran);
        mastered.stop();
        assertTrue(listeners.isEmpty());
    }

    @Test
    public void withoutTakingOnAtTheStartAndNotForASwitchThatWentAway() {
        MasteredSwitches mastered = mastered();
        mastered.start(false);
        assertTrue(ran.isEmpty());
        s2Available = false;
        deliver(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, S2);
        assertFalse(mastered.available().contains(S2));
        deliver(DeviceEvent.Type.DEVICE_ADDED, S1);
        assertEquals(List.of("device:s1 again"), ran);
        mastered.stop();
    }
}
