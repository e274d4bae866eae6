/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/**
 * Channels to P4Runtime servers, sized for what the protocol sends back.
 */
public final class P4RuntimeChannels {

    /**
     * A refused Write carries one error per update in its trailers: a batch
     * of a few hundred (a restarted host writing what the switch already
     * has) passes gRPC's 8 KiB default, and the client would reset the
     * stream instead of reading the errors.
     */
    static final int MAX_METADATA_BYTES = 16 << 20;
    /** A Read of a large table (100,000s of UPF sessions) in one message. */
    static final int MAX_MESSAGE_BYTES = 256 << 20;

    private P4RuntimeChannels() {
    }

    /**
     * A plaintext channel.
     *
     * @param host the server's host
     * @param port its port
     * @return the channel
     */
    public static ManagedChannel plaintext(String host, int port) {
        return NettyChannelBuilder.forAddress(host, port).directExecutor().usePlaintext()
                .maxInboundMetadataSize(MAX_METADATA_BYTES)
                .maxInboundMessageSize(MAX_MESSAGE_BYTES).build();
    }
}
