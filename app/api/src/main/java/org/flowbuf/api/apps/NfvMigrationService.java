/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.flowbuf.api.FlowFilter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;

/**
 * NFV flow migration on the Buffer Service: hold a flow while a network
 * function's state moves to a new instance, then release it, in order and
 * without loss, into the new instance (or back into the old one).
 */
public interface NfvMigrationService {

    /** Owner of the buffers and intents of migrations. */
    String OWNER = "org.flowbuf.apps.nfv";

    /**
     * Starts a migration: the flow is paused into a buffer.
     *
     * @param deviceId switch in front of the NF instances
     * @param inPort   port the flow arrives on
     * @param flow     the flow
     * @return the migration, HOLDING
     * @throws org.flowbuf.api.FlowBufException when the pause is refused
     */
    NfvMigration begin(DeviceId deviceId, PortNumber inPort, FlowFilter flow);

    /**
     * The NF state has moved: releases the held flow into the new instance.
     *
     * @param id      migration id
     * @param newPort port of the new NF instance
     * @return the migration, COMPLETED
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, CONFLICT (not HOLDING)
     */
    NfvMigration complete(long id, PortNumber newPort);

    /**
     * Gives up: releases the held flow back to the old instance.
     *
     * @param id      migration id
     * @param oldPort port of the old NF instance
     * @return the migration, ABORTED
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, CONFLICT (not HOLDING)
     */
    NfvMigration abort(long id, PortNumber oldPort);

    /**
     * Every migration.
     *
     * @return migrations
     */
    Collection<NfvMigration> migrations();
}
