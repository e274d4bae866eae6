/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.flow.FlowRule;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A component's table entries of a device, claimed through
 * {@link PiTranslationClaims} on each of the device's events (but its port
 * statistics and its removal), on the event's own thread, on the device's
 * master only. After an ONOS restart the device's first events (added, its
 * ports from gNMI) come before it is available, when ONOS's flow provider
 * reads it and deletes what its empty stores cannot account for; a
 * component that writes its entries again only once the device is
 * available (on its own worker) loses that race. Cheap once they are known.
 */
final class DeviceEventClaims implements DeviceListener {

    private final Predicate<DeviceId> master;
    private final Function<DeviceId, List<FlowRule>> entries;
    private final PiTranslationClaims claims;
    private final String what;

    /**
     * @param master  whether this instance masters a device
     * @param entries the component's entries of a device, as they should be there
     * @param claims  where they are claimed
     * @param what    what they are, for the log
     */
    DeviceEventClaims(Predicate<DeviceId> master, Function<DeviceId, List<FlowRule>> entries,
                      PiTranslationClaims claims, String what) {
        this.master = Objects.requireNonNull(master);
        this.entries = Objects.requireNonNull(entries);
        this.claims = Objects.requireNonNull(claims);
        this.what = Objects.requireNonNull(what);
    }

    @Override
    public boolean isRelevant(DeviceEvent event) {
        return event.type() != DeviceEvent.Type.PORT_STATS_UPDATED
                && event.type() != DeviceEvent.Type.DEVICE_REMOVED;
    }

    @Override
    public void event(DeviceEvent event) {
        DeviceId deviceId = event.subject().id();
        if (master.test(deviceId)) {
            claims.claim(deviceId, entries.apply(deviceId), what);
        }
    }
}
