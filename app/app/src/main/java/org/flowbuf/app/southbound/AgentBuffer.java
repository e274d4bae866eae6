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
    private final boolean reattached;
    private final long reattachedPackets;
    private final long missedWhileDown;

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
        this(id, spec, vport, mode, occupancyPackets, false, 0, 0);
    }

    /**
     * Creates the view of a buffer that the agent may have re-attached from
     * its state directory after a crash.
     *
     * @param id                buffer id
     * @param spec              its configuration
     * @param vport             the vport bound to it, null when none
     * @param mode              that vport's mode (NONE when unbound)
     * @param occupancyPackets  packets held
     * @param reattached        the agent re-attached it after a crash
     * @param reattachedPackets packets held before the crash, held again
     * @param missedWhileDown   packets that reached its vports while the
     *                          agent was down (lost)
     */
    public AgentBuffer(BufferId id, BufferSpec spec, VportId vport, VportMode mode,
                       long occupancyPackets, boolean reattached, long reattachedPackets,
                       long missedWhileDown) {
        this.reattached = reattached;
        this.reattachedPackets = reattachedPackets;
        this.missedWhileDown = missedWhileDown;
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

    /**
     * Whether the agent re-attached the buffer from its state directory as
     * it started after a crash.
     *
     * @return true when re-attached
     */
    public boolean reattached() {
        return reattached;
    }

    /**
     * Packets held before the agent's crash and held again.
     *
     * @return packets
     */
    public long reattachedPackets() {
        return reattachedPackets;
    }

    /**
     * Packets that reached the buffer's vports while the agent was down.
     *
     * @return packets
     */
    public long missedWhileDown() {
        return missedWhileDown;
    }
}
