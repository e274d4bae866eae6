/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.PduSession;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What new sessions of one device were given: a slot each, and a tunnel
 * peer id each (existing peers are shared; new ones need an entry).
 */
final class DeviceAllocation {

    private final Map<PduSession, Integer> slots = new IdentityHashMap<>();
    private final Map<PduSession, Integer> peers = new IdentityHashMap<>();
    private final Map<TunnelPeer, Integer> newPeers = new LinkedHashMap<>();

    void assign(PduSession session, int slot, int peer) {
        slots.put(session, slot);
        peers.put(session, peer);
    }

    void addPeer(TunnelPeer peer, int id) {
        newPeers.put(peer, id);
    }

    int slot(PduSession session) {
        return slots.get(session);
    }

    int peer(PduSession session) {
        return peers.get(session);
    }

    Map<TunnelPeer, Integer> newPeers() {
        return newPeers;
    }
}
