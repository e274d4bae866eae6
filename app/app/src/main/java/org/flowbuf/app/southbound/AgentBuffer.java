/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;

import java.util.Objects;
import java.util.Optional;

/**
 * A buffer as its agent reports it: what the controller needs to adopt it
 * or to check its own view against it.
 */
public final class AgentBuffer {

    private final BufferId id;
    private final BufferSpec spec;
    private final VportId vport;
    private final VportMode mode;
    private final long occupancyPackets;

    /**
     * Creates the view.
     *
     * @param id               buffer id
     * @param spec             its configuration
     * @param vport            the vport bound to it, null when none
     * @param mode             that vport's mode (NONE when unbound)
     * @param occupancyPackets packets held
     */
    public AgentBuffer(BufferId id, BufferSpec spec, VportId vport, VportMode mode,
                       long occupancyPackets) {
        this.id = Objects.requireNonNull(id);
        this.spec = Objects.requireNonNull(spec);
        this.vport = vport;
        this.mode = Objects.requireNonNull(mode);
        this.occupancyPackets = occupancyPackets;
    }

    /**
     * Buffer id.
     *
     * @return id
     */
    public BufferId id() {
        return id;
    }

    /**
     * Configuration.
     *
     * @return spec
     */
    public BufferSpec spec() {
        return spec;
    }

    /**
     * Bound vport.
     *
     * @return vport id, empty when unbound
     */
    public Optional<VportId> vport() {
        return Optional.ofNullable(vport);
    }

    /**
     * Mode of the bound vport.
     *
     * @return mode
     */
    public VportMode mode() {
        return mode;
    }

    /**
     * Packets held.
     *
     * @return packets
     */
    public long occupancyPackets() {
        return occupancyPackets;
    }
}
