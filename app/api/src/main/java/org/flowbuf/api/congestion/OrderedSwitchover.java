/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import com.google.common.base.MoreObjects;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * The merge buffer of a flow registered with orderedSwitchover: on each
 * switch-over, the merge switch holds the packets the backup path brings
 * until the end marker the rerouting switch sent down the old path arrives
 * (seen), or until a bound (expired: released without the guarantee).
 */
public final class OrderedSwitchover {

    private final DeviceId mergeSwitch;
    private final long markersSeen;
    private final long boundExpiries;
    private final boolean armed;

    /**
     * Creates a snapshot.
     *
     * @param mergeSwitch   the last switch common to both paths, where the buffer is
     * @param markersSeen   switch-overs whose end marker released the held packets
     * @param boundExpiries switch-overs whose marker did not come within the bound
     * @param armed         whether the next switch-over's packets would be held now
     */
    public OrderedSwitchover(DeviceId mergeSwitch, long markersSeen, long boundExpiries,
                             boolean armed) {
        this.mergeSwitch = Objects.requireNonNull(mergeSwitch);
        this.markersSeen = markersSeen;
        this.boundExpiries = boundExpiries;
        this.armed = armed;
    }

    /**
     * The merge switch.
     *
     * @return device
     */
    public DeviceId mergeSwitch() {
        return mergeSwitch;
    }

    /**
     * Switch-overs released by their end marker.
     *
     * @return count
     */
    public long markersSeen() {
        return markersSeen;
    }

    /**
     * Switch-overs released by the bound (the marker was lost or late).
     *
     * @return count
     */
    public long boundExpiries() {
        return boundExpiries;
    }

    /**
     * Whether a hold is armed for the backup path now.
     *
     * @return armed
     */
    public boolean armed() {
        return armed;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OrderedSwitchover)) {
            return false;
        }
        OrderedSwitchover s = (OrderedSwitchover) o;
        return mergeSwitch.equals(s.mergeSwitch) && markersSeen == s.markersSeen
                && boundExpiries == s.boundExpiries && armed == s.armed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(mergeSwitch, markersSeen, boundExpiries, armed);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("merge", mergeSwitch)
                .add("markersSeen", markersSeen).add("boundExpiries", boundExpiries)
                .add("armed", armed).toString();
    }
}
