/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.VportId;

import java.util.Objects;
import java.util.Optional;

/**
 * A switch port reserved for a vport: the number flow rules use, and how the
 * agent reaches it (a Linux interface of an external agent, or an internal
 * port of pbswitch when the interface is absent).
 */
public final class VportSlot {

    private final VportId id;
    private final long switchPort;
    private final String agentInterface;
    private final long txRateBps;
    private final long tag;

    /**
     * Creates an unpaced slot.
     *
     * @param id             vport id used on the agent
     * @param switchPort     switch port number of the vport
     * @param agentInterface Linux interface the agent opens; null for in-process
     */
    public VportSlot(VportId id, long switchPort, String agentInterface) {
        this(id, switchPort, agentInterface, 0);
    }

    /**
     * Creates a slot.
     *
     * @param id             vport id used on the agent
     * @param switchPort     switch port number of the vport
     * @param agentInterface Linux interface the agent opens; null for in-process
     * @param txRateBps      replay pacing in bits/s; 0 for as fast as possible
     *                       (an external agent must not replay faster than the
     *                       switch can forward to the out port)
     */
    public VportSlot(VportId id, long switchPort, String agentInterface, long txRateBps) {
        this(id, switchPort, agentInterface, txRateBps, 0);
    }

    /**
     * Creates a slot that may be a logical vport of a shared switch port.
     *
     * @param id             vport id used on the agent
     * @param switchPort     switch port number of the vport
     * @param agentInterface Linux interface the agent opens; null for in-process
     * @param txRateBps      replay pacing in bits/s; 0 for as fast as possible
     * @param tag            0 for a vport that has its switch port alone;
     *                       otherwise its buffer tag on the shared port
     */
    public VportSlot(VportId id, long switchPort, String agentInterface, long txRateBps,
                     long tag) {
        this.id = Objects.requireNonNull(id);
        this.switchPort = switchPort;
        this.agentInterface = agentInterface;
        this.txRateBps = txRateBps;
        this.tag = tag;
    }

    /**
     * Buffer tag of a logical vport.
     *
     * @return tag, 0 for a vport that has its switch port alone
     */
    public long tag() {
        return tag;
    }

    /**
     * Replay pacing of the vport.
     *
     * @return bits per second, 0 for unpaced
     */
    public long txRateBps() {
        return txRateBps;
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
     * Switch port number.
     *
     * @return port
     */
    public long switchPort() {
        return switchPort;
    }

    /**
     * Interface of an external agent, if any.
     *
     * @return interface name, empty for an in-process vport
     */
    public Optional<String> agentInterface() {
        return Optional.ofNullable(agentInterface);
    }
}
