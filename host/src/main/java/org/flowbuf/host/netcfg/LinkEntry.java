/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import org.onosproject.net.ConnectPoint;

import java.util.Objects;

/**
 * A link of the netcfg's "links" section ("device:a/2-device:b/1"), both
 * directions.
 */
public final class LinkEntry {

    private final ConnectPoint one;
    private final ConnectPoint other;

    LinkEntry(ConnectPoint one, ConnectPoint other) {
        this.one = Objects.requireNonNull(one);
        this.other = Objects.requireNonNull(other);
    }

    /**
     * One end.
     *
     * @return connect point
     */
    public ConnectPoint one() {
        return one;
    }

    /**
     * The other end.
     *
     * @return connect point
     */
    public ConnectPoint other() {
        return other;
    }
}
