/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.testing.GrpcCleanupRule;

import java.io.IOException;
import java.time.Duration;

/** Serves a FakeBufferAgent in process and returns a real client of it. */
public final class InProcessAgent {

    /** Application id the test clients send. */
    public static final String APP_ID = "org.flowbuf.test";

    private InProcessAgent() {
    }

    /**
     * Starts the agent; the rule shuts server and channel down after the test.
     *
     * @param grpc      cleanup rule of the test
     * @param agent     the fake agent to serve
     * @param agentName name the client uses in its messages
     * @return a client of the agent with a one-second deadline
     * @throws IOException if the in-process server cannot start
     */
    public static DefaultBufferAgentClient start(GrpcCleanupRule grpc, FakeBufferAgent agent,
                                                 String agentName) throws IOException {
        String name = InProcessServerBuilder.generateName();
        grpc.register(InProcessServerBuilder.forName(name).directExecutor().addService(agent)
                              .build().start());
        ManagedChannel channel = grpc.register(
                InProcessChannelBuilder.forName(name).directExecutor().build());
        return new DefaultBufferAgentClient(agentName, APP_ID, channel, false, Duration.ofSeconds(1));
    }
}
