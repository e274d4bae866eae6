/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import java.util.Objects;

/**
 * Where the merge switch steers an ordered flow's end markers: the switch
 * port of the trigger buffer's vport and its buffer tag (0 when the vport
 * has its port alone).
 */
final class CcSink {

    private final long port;
    private final long tag;

    CcSink(long port, long tag) {
        this.port = port;
        this.tag = tag;
    }

    long port() {
        return port;
    }

    long tag() {
        return tag;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CcSink && ((CcSink) o).port == port && ((CcSink) o).tag == tag;
    }

    @Override
    public int hashCode() {
        return Objects.hash(port, tag);
    }

    @Override
    public String toString() {
        return "port " + port + " tag " + tag;
    }
}
