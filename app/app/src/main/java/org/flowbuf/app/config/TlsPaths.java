/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Files for the agent channel's TLS: the CA that signed the agent's
 * certificate and, for mutual TLS, the controller's certificate and key.
 */
public final class TlsPaths {

    private final String caCert;
    private final String clientCert;
    private final String clientKey;

    /**
     * Creates the paths.
     *
     * @param caCert     CA certificate (PEM)
     * @param clientCert client certificate (PEM), null without mTLS
     * @param clientKey  client key (PEM), null without mTLS
     */
    public TlsPaths(String caCert, String clientCert, String clientKey) {
        this.caCert = Objects.requireNonNull(caCert);
        this.clientCert = clientCert;
        this.clientKey = clientKey;
    }

    /**
     * CA certificate path.
     *
     * @return path
     */
    public String caCert() {
        return caCert;
    }

    /**
     * Client certificate path, for mutual TLS.
     *
     * @return path, if set
     */
    public Optional<String> clientCert() {
        return Optional.ofNullable(clientCert);
    }

    /**
     * Client key path, for mutual TLS.
     *
     * @return path, if set
     */
    public Optional<String> clientKey() {
        return Optional.ofNullable(clientKey);
    }
}
