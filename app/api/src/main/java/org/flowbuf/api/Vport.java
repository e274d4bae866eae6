/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;

import java.util.Objects;
import java.util.Optional;

/**
 * A virtual port: a switch port whose far end is a buffer slot of the
 * device's agent. Vports are configured per device; a buffer binds one.
 */
public final class Vport {

    private final VportId id;
    private final long switchPort;
    private final BufferId buffer;
    private final VportMode mode;
    private final long tag;

    /**
     * Creates the description of a vport that has its switch port alone.
     *
     * @param id         vport id
     * @param switchPort the switch port it appears as
     * @param buffer     buffer bound to it, null when free
     * @param mode       its mode (NONE when free)
     */
    public Vport(VportId id, long switchPort, BufferId buffer, VportMode mode) {
        this(id, switchPort, 0, buffer, mode);
    }

    /**
     * Creates a vport description.
     *
     * @param id         vport id
     * @param switchPort the switch port it appears as
     * @param tag        0, or the buffer tag of a logical vport that shares
     *                   its switch port with others
     * @param buffer     buffer bound to it, null when free
     * @param mode       its mode (NONE when free)
     */
    public Vport(VportId id, long switchPort, long tag, BufferId buffer, VportMode mode) {
        this.id = Objects.requireNonNull(id);
        this.switchPort = switchPort;
        this.tag = tag;
        this.buffer = buffer;
        this.mode = Objects.requireNonNull(mode);
    }

    /**
     * Buffer tag: the switch tells the logical vports of one switch port
     * apart by it (steer_to_buffer).
     *
     * @return tag, 0 for a vport that has its switch port alone
     */
    public long tag() {
        return tag;
    }

    /**
     * Vport id.
     *
     * @return id
     */
    public VportId id() {
        return id;
    }

    /**
     * The switch port the vport appears as.
     *
     * @return port number
     */
    public long switchPort() {
        return switchPort;
    }

    /**
     * The bound buffer.
     *
     * @return buffer id, empty when the vport is free
     */
    public Optional<BufferId> buffer() {
        return Optional.ofNullable(buffer);
    }

    /**
     * Mode of the vport.
     *
     * @return mode
     */
    public VportMode mode() {
        return mode;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Vport)) {
            return false;
        }
        Vport v = (Vport) o;
        return id.equals(v.id) && switchPort == v.switchPort && tag == v.tag
                && Objects.equals(buffer, v.buffer) && mode == v.mode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, switchPort, tag, buffer, mode);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("port", switchPort).add("tag", tag)
                .add("buffer", buffer).add("mode", mode).toString();
    }
}
