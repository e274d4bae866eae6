/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.After;
import org.junit.Test;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CapabilitiesRequest;
import p4.v1.P4RuntimeOuterClass.CapabilitiesResponse;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * P4RuntimeClient#warmUp: Writes without updates, Capabilities requests
 * when the target refuses those, and an early stop when it is away.
 */
public class P4RuntimeWarmUpTest {

    private static final long P4_DEVICE_ID = 3;
    private static final long ELECTION_ID = 10;

    /** Records Writes and counts Capabilities; refuses Writes with a set code. */
    private static final class Target extends P4RuntimeGrpc.P4RuntimeImplBase {
        private final List<WriteRequest> writes = new CopyOnWriteArrayList<>();
        private final AtomicInteger capabilities = new AtomicInteger();
        private volatile Status.Code writeAnswer = Status.Code.OK;
        private volatile Status.Code capabilitiesAnswer = Status.Code.OK;

        @Override
        public void write(WriteRequest request, StreamObserver<WriteResponse> response) {
            writes.add(request);
            if (writeAnswer == Status.Code.OK) {
                response.onNext(WriteResponse.getDefaultInstance());
                response.onCompleted();
            } else {
                response.onError(writeAnswer.toStatus().asRuntimeException());
            }
        }

        @Override
        public void capabilities(CapabilitiesRequest request,
                                 StreamObserver<CapabilitiesResponse> response) {
            capabilities.incrementAndGet();
            if (capabilitiesAnswer == Status.Code.OK) {
                response.onNext(CapabilitiesResponse.newBuilder()
                                        .setP4RuntimeApiVersion("1.4.1").build());
                response.onCompleted();
            } else {
                response.onError(capabilitiesAnswer.toStatus().asRuntimeException());
            }
        }
    }

    private final Target target = new Target();
    private Server server;
    private ManagedChannel channel;

    private P4RuntimeClient start() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(target)
                .build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        return new P4RuntimeClient(channel, P4_DEVICE_ID, ELECTION_ID, Duration.ofSeconds(5));
    }

    @After
    public void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    public void writesWithoutUpdatesCarryTheDeviceAndElectionIds() throws Exception {
        assertEquals(25, start().warmUp(25));
        assertEquals(25, target.writes.size());
        for (WriteRequest w : target.writes) {
            assertEquals(0, w.getUpdatesCount());
            assertEquals(P4_DEVICE_ID, w.getDeviceId());
            assertEquals(ELECTION_ID, w.getElectionId().getLow());
        }
        assertEquals(0, target.capabilities.get());
    }

    @Test
    public void aTargetThatRefusesThemGetsCapabilitiesRequests() throws Exception {
        target.writeAnswer = Status.Code.INVALID_ARGUMENT;
        assertEquals(25, start().warmUp(25));
        assertEquals("one refused Write", 1, target.writes.size());
        assertEquals(24, target.capabilities.get());
    }

    @Test
    public void refusedCapabilitiesCountToo() throws Exception {
        target.writeAnswer = Status.Code.PERMISSION_DENIED;
        target.capabilitiesAnswer = Status.Code.UNIMPLEMENTED;
        assertEquals(10, start().warmUp(10));
        assertEquals(9, target.capabilities.get());
    }

    @Test
    public void itStopsWhenTheTargetIsAway() throws Exception {
        P4RuntimeClient client = start();
        server.shutdownNow().awaitTermination();
        assertEquals("the first call finds it away", 1, client.warmUp(1000));
        assertTrue(target.writes.isEmpty());
    }

    @Test
    public void itStopsWhenInterrupted() throws Exception {
        P4RuntimeClient client = start();
        Thread.currentThread().interrupt();
        try {
            assertEquals(0, client.warmUp(1000));
        } finally {
            assertTrue(Thread.interrupted());  // left set, and cleared for the next test
        }
        assertTrue(target.writes.isEmpty());
    }
}
