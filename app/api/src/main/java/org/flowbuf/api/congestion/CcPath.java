/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A flow's path: its switches from the source host's to the destination
 * host's, each with the port the flow leaves it by.
 */
public final class CcPath {

    private final List<CcHop> hops;

    /**
     * Creates a path.
     *
     * @param hops at least one hop, the first on the source's switch
     */
    public CcPath(List<CcHop> hops) {
        if (hops.isEmpty()) {
            throw new IllegalArgumentException("a path has at least one switch");
        }
        this.hops = List.copyOf(hops);
    }

    /**
     * The hops in order.
     *
     * @return hops
     */
    public List<CcHop> hops() {
        return hops;
    }

    /**
     * The first hop (the source host's switch).
     *
     * @return hop
     */
    public CcHop first() {
        return hops.get(0);
    }

    /**
     * The hops after the first: the switches that only forward on this path.
     *
     * @return hops, maybe empty
     */
    public List<CcHop> rest() {
        return hops.subList(1, hops.size());
    }

    /**
     * The switches of the hops after the first.
     *
     * @return devices
     */
    public Set<DeviceId> restDevices() {
        return rest().stream().map(CcHop::device).collect(Collectors.toSet());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CcPath && hops.equals(((CcPath) o).hops);
    }

    @Override
    public int hashCode() {
        return hops.hashCode();
    }

    @Override
    public String toString() {
        return hops.toString();
    }
}
