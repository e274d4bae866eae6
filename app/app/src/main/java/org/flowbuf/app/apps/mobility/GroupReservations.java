/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The anchor multicast groups that open FMM sessions hold, per anchor. A
 * session claims its group with one atomic add to the anchor's set, so two
 * sessions opening at once (each in its own UE's turn) never take the same
 * group, without a lock around their calls.
 */
final class GroupReservations {

    private final int first;
    private final int last;
    private final Map<DeviceId, Set<Integer>> taken = new ConcurrentHashMap<>();

    /**
     * Reservations of the groups first..last of each anchor.
     *
     * @param first lowest group
     * @param last  highest group
     */
    GroupReservations(int first, int last) {
        this.first = first;
        this.last = last;
    }

    /**
     * Claims the lowest group of the anchor no one holds.
     *
     * @param anchor    the anchor switch
     * @param heldThere groups held beyond these reservations (the open
     *                  sessions of a cluster's other instances)
     * @return the group
     * @throws FlowBufException CONFLICT when every group is held
     */
    int claim(DeviceId anchor, Set<Integer> heldThere) {
        Set<Integer> held = taken.computeIfAbsent(anchor, d -> ConcurrentHashMap.newKeySet());
        for (int group = first; group <= last; group++) {
            if (!heldThere.contains(group) && held.add(group)) {
                return group;
            }
        }
        throw FlowBufException.conflict("no free multicast group on %s", anchor);
    }

    /**
     * Gives a group back.
     *
     * @param anchor the anchor switch
     * @param group  the group
     */
    void release(DeviceId anchor, int group) {
        Set<Integer> held = taken.get(anchor);
        if (held != null) {
            held.remove(group);
        }
    }
}
