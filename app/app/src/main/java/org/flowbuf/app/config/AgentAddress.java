/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.google.common.net.HostAndPort;

import java.util.Objects;

/**
 * Where a buffer agent listens: host and TCP port, both required.
 */
public final class AgentAddress {

    private final String host;
    private final int port;

    private AgentAddress(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /**
     * Parses "host:port" (IPv6 hosts in brackets).
     *
     * @param text the address
     * @return the address
     * @throws IllegalArgumentException when the text is not host:port
     */
    public static AgentAddress parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("address is empty");
        }
        HostAndPort hp;
        try {
            hp = HostAndPort.fromString(text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not host:port", e);
        }
        if (hp.getHost().isEmpty() || !hp.hasPort()) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        if (hp.getPort() < 1) {
            throw new IllegalArgumentException("port of '" + text + "' must be 1..65535");
        }
        return new AgentAddress(hp.getHost(), hp.getPort());
    }

    /**
     * Host name or address.
     *
     * @return host
     */
    public String host() {
        return host;
    }

    /**
     * TCP port.
     *
     * @return port
     */
    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentAddress && host.equals(((AgentAddress) o).host)
                && port == ((AgentAddress) o).port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port);
    }

    @Override
    public String toString() {
        return HostAndPort.fromParts(host, port).toString();
    }
}
