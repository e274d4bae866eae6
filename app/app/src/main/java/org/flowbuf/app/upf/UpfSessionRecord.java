/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.PduSession;

import java.util.Objects;

/**
 * A stored session with what the manager allocated for it on its device:
 * its slot (counter and meter cells 2 * slot for the uplink, 2 * slot + 1
 * for the downlink) and its tunnel peer id.
 */
public final class UpfSessionRecord {

    private final PduSession session;
    private final int slot;
    private final int tunnelPeer;

    /**
     * A record.
     *
     * @param session    the session, with its id
     * @param slot       its slot on the device
     * @param tunnelPeer its tunnel peer id on the device
     */
    public UpfSessionRecord(PduSession session, int slot, int tunnelPeer) {
        this.session = Objects.requireNonNull(session);
        this.slot = slot;
        this.tunnelPeer = tunnelPeer;
    }

    /**
     * The session.
     *
     * @return session
     */
    public PduSession session() {
        return session;
    }

    /**
     * The slot.
     *
     * @return slot
     */
    public int slot() {
        return slot;
    }

    /**
     * The tunnel peer id.
     *
     * @return id
     */
    public int tunnelPeer() {
        return tunnelPeer;
    }

    /**
     * The counter and meter cell of the uplink.
     *
     * @return cell
     */
    public int uplinkCell() {
        return 2 * slot;
    }

    /**
     * The counter and meter cell of the downlink.
     *
     * @return cell
     */
    public int downlinkCell() {
        return 2 * slot + 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UpfSessionRecord && session.equals(((UpfSessionRecord) o).session)
                && slot == ((UpfSessionRecord) o).slot
                && tunnelPeer == ((UpfSessionRecord) o).tunnelPeer;
    }

    @Override
    public int hashCode() {
        return Objects.hash(session, slot, tunnelPeer);
    }
}
