/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * A component's table entries of a device, restored in ONOS's stores when
 * this instance becomes the device's master (the one before died), on the
 * event's own thread. ONOS backs a device's flow rules up to the other
 * instances only periodically, so the dead master's last writes may be
 * missing from the new master's flow store, and the new master's first
 * read of the device deletes what its store lacks. Seen live (three
 * instances, the master killed with kill -9 just after a pause): the
 * paused flow's steering rule was deleted, the flow went straight to its
 * destination while its held packets were still in the buffer, and the
 * resume delivered 553 of them behind newer ones.
 *
 * <p>Only while the device is available, as it stays through a failover:
 * after an ONOS restart the first mastership events come before the device
 * is connected, and rules written then went out as inserts the switch
 * refused (ALREADY_EXISTS) before ONOS's first read; that case is the
 * device events' ({@link DeviceEventClaims}, FlowBuf's device listener).
 *
 * <p>A restore that fails is tried again ({@link NewMasterRetries}).
 */
final class NewMasterClaims implements MastershipListener {

    private final Logger log = getLogger(getClass());
    private final Predicate<DeviceId> master;
    private final Predicate<DeviceId> available;
    private final String what;
    private final NewMasterRetries restores;

    /**
     * @param master  whether this instance masters a device (and the
     *                component has entries there)
     * @param available whether the device is available (connected) now
     * @param entries the component's entries of a device, as they should be there
     * @param claims  where they are restored
     * @param what    what they are, for the log
     */
    NewMasterClaims(Predicate<DeviceId> master, Predicate<DeviceId> available,
                    Function<DeviceId, List<FlowRule>> entries, PiTranslationClaims claims,
                    String what) {
        this.master = Objects.requireNonNull(master);
        this.available = Objects.requireNonNull(available);
        this.what = Objects.requireNonNull(what);
        Objects.requireNonNull(entries);
        Objects.requireNonNull(claims);
        this.restores = new NewMasterRetries(
                "new-master-claims", Runnable::run, d -> master.test(d) && available.test(d),
                d -> claims.restore(d, entries.apply(d), what), log, what);
    }

    @Override
    public boolean isRelevant(MastershipEvent event) {
        return event.type() == MastershipEvent.Type.MASTER_CHANGED;
    }

    @Override
    public void event(MastershipEvent event) {
        DeviceId deviceId = event.subject();
        if (!master.test(deviceId)) {
            return;
        }
        if (available.test(deviceId)) {
            restores.attempt(deviceId);
        } else {
            log.info("{}: master now, not yet connected: its {} are left to its device events",
                     deviceId, what);
        }
    }

    /** Stops the retries pending. */
    void close() {
        restores.close();
    }
}
