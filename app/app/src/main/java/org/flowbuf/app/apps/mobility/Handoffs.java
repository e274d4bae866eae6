/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.onosproject.net.DeviceId;

/**
 * How an FMM session's handoffs stop the source and sync and release the
 * target: from the sync point the controller reads at the source
 * ({@link SyncPointHandoffs}), or from the UE's own signals and receive
 * reports, on the agents ({@link ReportedHandoffs}).
 */
interface Handoffs {

    /**
     * The handoff call: the UE is about to leave the source for the target.
     *
     * @param source the serving eNB
     * @param target the eNB the UE goes to
     */
    void start(DeviceId source, DeviceId target);

    /**
     * Another handoff call while the UE is detached: it goes elsewhere.
     *
     * @param target the eNB the UE goes to now
     */
    void retarget(DeviceId target);

    /**
     * The attach call: the target delivers in the source's place.
     *
     * @param source the eNB that served before the handoff
     * @param target the eNB the UE attached to
     * @return what the sync and release did
     * @throws InterruptedException while waiting for a sync under way
     */
    Delivery deliver(DeviceId source, DeviceId target) throws InterruptedException;
}
