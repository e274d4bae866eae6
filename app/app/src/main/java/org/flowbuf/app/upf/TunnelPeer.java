/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.PduSession;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * A downlink tunnel's far end as the tunnel_peers table holds it: outer
 * source (the session's N3 address), destination (the gNodeB) and UDP
 * source port. Sessions with the same peer share its entry.
 */
public final class TunnelPeer {

    private final Ip4Address n3Address;
    private final Ip4Address gnbAddress;
    private final int port;

    private TunnelPeer(Ip4Address n3Address, Ip4Address gnbAddress, int port) {
        this.n3Address = n3Address;
        this.gnbAddress = gnbAddress;
        this.port = port;
    }

    /**
     * The peer of a session.
     *
     * @param s session
     * @return peer
     */
    public static TunnelPeer of(PduSession s) {
        return new TunnelPeer(s.n3Address(), s.gnbAddress(), s.gnbPort());
    }

    /**
     * Outer source.
     *
     * @return address
     */
    public Ip4Address n3Address() {
        return n3Address;
    }

    /**
     * Outer destination.
     *
     * @return address
     */
    public Ip4Address gnbAddress() {
        return gnbAddress;
    }

    /**
     * Outer UDP source port.
     *
     * @return port
     */
    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TunnelPeer)) {
            return false;
        }
        TunnelPeer p = (TunnelPeer) o;
        return n3Address.equals(p.n3Address) && gnbAddress.equals(p.gnbAddress) && port == p.port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(n3Address, gnbAddress, port);
    }
}
