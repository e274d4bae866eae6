/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.ManagedChannel;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.onosproject.net.DeviceId;

/**
 * Opens and closes the one channel to a device's agent: ONOS's gRPC channel
 * controller in ONOS, a plain grpc-java channel in the embedded host.
 */
public interface ChannelFactory {

    /**
     * Opens a channel to the agent a device's config names.
     *
     * @param deviceId device
     * @param config   its valid FlowBuf config
     * @return channel
     */
    ManagedChannel open(DeviceId deviceId, FlowBufDeviceConfig config);

    /**
     * Closes a channel opened by {@link #open}.
     *
     * @param deviceId device
     * @param channel  channel
     */
    void close(DeviceId deviceId, ManagedChannel channel);
}
