/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.gnb;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.util.Collection;
import java.util.Map;

/**
 * Writes a gNodeB's entries to its device: through ONOS's FlowRuleService
 * and GroupService, or the embedded host's P4Runtime session. Each call
 * returns once the device has the change.
 */
public interface GnbTableWriter {

    /**
     * Writes clone sessions, then entries; an entry with the key of one the
     * device has replaces its action.
     *
     * @param deviceId      the device
     * @param cloneSessions session id to its one egress port
     * @param entries       the entries
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when the device refuses
     */
    void write(DeviceId deviceId, Map<Integer, Long> cloneSessions, Collection<FlowRule> entries);

    /**
     * Removes entries, then clone sessions; one the device lacks is fine.
     *
     * @param deviceId      the device
     * @param cloneSessions session ids
     * @param entries       the entries
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE when the device refuses
     */
    void remove(DeviceId deviceId, Collection<Integer> cloneSessions, Collection<FlowRule> entries);
}
