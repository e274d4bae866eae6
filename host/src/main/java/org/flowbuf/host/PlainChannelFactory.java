/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import org.flowbuf.app.config.AgentAddress;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.app.config.TlsPaths;
import org.flowbuf.app.southbound.ChannelFactory;
import org.onosproject.net.DeviceId;

import javax.net.ssl.SSLException;
import java.io.File;
import java.util.concurrent.TimeUnit;

/**
 * Opens gRPC channels to buffer agents with grpc-java's Netty transport:
 * plaintext, or TLS with the PEM files the device's config names.
 */
final class PlainChannelFactory implements ChannelFactory {

    @Override
    public ManagedChannel open(DeviceId deviceId, FlowBufDeviceConfig config) {
        AgentAddress address = config.agentAddress();
        // Direct executor: answers are handled on the event loop, without a
        // hand-off to another thread per call (a millisecond on two cores).
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(address.host(), address.port())
                .directExecutor();
        if (config.tls().isEmpty()) {
            return builder.usePlaintext().build();
        }
        try {
            return builder.sslContext(sslContext(config.tls().get())).build();
        } catch (SSLException e) {
            throw new IllegalArgumentException(deviceId + ": bad TLS material: " + e.getMessage(), e);
        }
    }

    @Override
    public void close(DeviceId deviceId, ManagedChannel channel) {
        channel.shutdown();
        try {
            channel.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static io.grpc.netty.shaded.io.netty.handler.ssl.SslContext sslContext(TlsPaths tls)
            throws SSLException {
        SslContextBuilder ssl = GrpcSslContexts.forClient().trustManager(new File(tls.caCert()));
        if (tls.clientCert().isPresent() && tls.clientKey().isPresent()) {
            ssl.keyManager(new File(tls.clientCert().get()), new File(tls.clientKey().get()));
        }
        return ssl.build();
    }
}
