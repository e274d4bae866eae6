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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.onlab.util.Tools.groupedThreads;
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
 * <p>Until the new master's flow store has taken the device's new term
 * over, it may still send the device's reads to the dead master and fail
 * (seen live: "Connection refused" from the killed instance, 250 ms before
 * "Synchronizing device flows"); the restore is then tried again every
 * {@value #RETRY_MS} ms, for as long as this instance stays the connected
 * device's master, up to {@value #ATTEMPTS} times.
 */
final class NewMasterClaims implements MastershipListener {

    static final long RETRY_MS = 100;
    static final int ATTEMPTS = 50;

    private final Logger log = getLogger(getClass());
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            groupedThreads("flowbuf", "new-master-claims", getLogger(NewMasterClaims.class)));
    private final Predicate<DeviceId> master;
    private final Predicate<DeviceId> available;
    private final Function<DeviceId, List<FlowRule>> entries;
    private final PiTranslationClaims claims;
    private final String what;

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
        this.entries = Objects.requireNonNull(entries);
        this.claims = Objects.requireNonNull(claims);
        this.what = Objects.requireNonNull(what);
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
            restore(deviceId, 1);
        } else {
            log.info("{}: master now, not yet connected: its {} are left to its device events",
                     deviceId, what);
        }
    }

    /** Stops the retries pending. */
    void close() {
        retries.shutdownNow();
    }

    private void restore(DeviceId deviceId, int attempt) {
        if (!master.test(deviceId) || !available.test(deviceId)) {
            return;
        }
        try {
            claims.restore(deviceId, entries.apply(deviceId), what);
        } catch (RuntimeException e) {
            if (attempt >= ATTEMPTS || retries.isShutdown()) {
                log.warn("{}: {} not restored for this new master: {}", deviceId, what,
                         e.getMessage());
                return;
            }
            retries.schedule(() -> restore(deviceId, attempt + 1), RETRY_MS,
                             TimeUnit.MILLISECONDS);
        }
    }
}
