/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import io.grpc.ManagedChannel;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.app.southbound.ChannelFactory;
import org.onosproject.grpc.api.GrpcChannelController;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * Agent channels from ONOS's gRPC channel controller (the same Netty stack
 * the P4Runtime driver uses): grpc:// for plaintext, grpcs:// when the
 * device's config has a tls section.
 */
final class GrpcControllerChannelFactory implements ChannelFactory {

    private final Logger log = getLogger(getClass());
    private final GrpcChannelController controller;
    private final Map<DeviceId, URI> opened = new ConcurrentHashMap<>();

    GrpcControllerChannelFactory(GrpcChannelController controller) {
        this.controller = Objects.requireNonNull(controller);
    }

    @Override
    public ManagedChannel open(DeviceId deviceId, FlowBufDeviceConfig config) {
        if (config.tls().isPresent()) {
            // ONOS 2.7's channel controller builds grpcs channels from its own
            // trust settings; it offers no hook for per-device PEM files.
            log.warn("{}: agent channel uses ONOS's grpcs settings, not the configured PEM files",
                     deviceId);
        }
        URI uri = uri(config);
        opened.put(deviceId, uri);
        return controller.create(uri);
    }

    @Override
    public void close(DeviceId deviceId, ManagedChannel channel) {
        // The controller owns its channels and destroys them by the URI they were made for.
        URI uri = opened.remove(deviceId);
        if (uri != null) {
            controller.destroy(uri);
        }
    }

    static URI uri(FlowBufDeviceConfig config) {
        String scheme = config.tls().isPresent() ? "grpcs" : "grpc";
        return URI.create(scheme + "://" + config.agentAddress());
    }
}
