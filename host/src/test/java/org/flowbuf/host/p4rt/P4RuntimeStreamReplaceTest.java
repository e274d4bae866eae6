/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.rpc.Code;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.After;
import org.junit.Test;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * P4RuntimeClient#becomePrimary on a client that already has a stream: the
 * new stream's arbitration waits until the target has ended the old one,
 * which holds the election id until then (as pbswitch and the spec do).
 */
public class P4RuntimeStreamReplaceTest {

    private static final long P4_DEVICE_ID = 3;
    private static final long ELECTION_ID = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * Refuses an arbitration whose election id an open stream holds; ends a
     * stream END_DELAY_MS after the client's half-close (or never), as a
     * busy target notices it late.
     */
    private static final class Target extends P4RuntimeGrpc.P4RuntimeImplBase {
        static final long END_DELAY_MS = 300;
        private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        private final Map<Uint128, Object> holders = new ConcurrentHashMap<>();
        private final AtomicInteger refused = new AtomicInteger();
        private final boolean endsStreams;

        Target(boolean endsStreams) {
            this.endsStreams = endsStreams;
        }

        @Override
        public StreamObserver<StreamMessageRequest> streamChannel(
                StreamObserver<StreamMessageResponse> response) {
            Object self = new Object();
            return new StreamObserver<>() {
                private Uint128 held;

                @Override
                public void onNext(StreamMessageRequest request) {
                    MasterArbitrationUpdate a = request.getArbitration();
                    if (endsStreams && holders.putIfAbsent(a.getElectionId(), self) != null) {
                        refused.incrementAndGet();
                        response.onError(Status.INVALID_ARGUMENT.withDescription(
                                "election id already used").asRuntimeException());
                        return;
                    }
                    held = a.getElectionId();
                    response.onNext(StreamMessageResponse.newBuilder().setArbitration(
                            a.toBuilder().setStatus(com.google.rpc.Status.newBuilder()
                                                            .setCode(Code.OK_VALUE))).build());
                }

                @Override
                public void onError(Throwable t) {
                    release();
                }

                @Override
                public void onCompleted() {
                    if (endsStreams) {
                        later.schedule(() -> {
                            release();
                            response.onCompleted();
                        }, END_DELAY_MS, TimeUnit.MILLISECONDS);
                    }
                }

                private void release() {
                    if (held != null) {
                        holders.remove(held, self);
                    }
                }
            };
        }
    }

    private Target target;
    private Server server;
    private ManagedChannel channel;

    private P4RuntimeClient start(Target t) throws Exception {
        target = t;
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(target).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        return new P4RuntimeClient(channel, P4_DEVICE_ID, ELECTION_ID, Duration.ofSeconds(5));
    }

    @After
    public void stop() {
        target.later.shutdownNow();
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    public void theNewArbitrationWaitsForTheOldStreamsEnd() throws Exception {
        P4RuntimeClient client = start(new Target(true));
        client.becomePrimary(TIMEOUT);
        client.becomePrimary(TIMEOUT);
        client.becomePrimary(TIMEOUT);
        assertEquals("no arbitration overtook the end of the stream it replaced", 0,
                     target.refused.get());
    }

    @Test
    public void aTargetThatNeverEndsTheOldStreamHoldsItUpForTheBoundOnly() throws Exception {
        P4RuntimeClient client = start(new Target(false));
        client.becomePrimary(TIMEOUT);
        long start = System.nanoTime();
        client.becomePrimary(TIMEOUT);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue("waited " + took, took.compareTo(P4RuntimeClient.OLD_STREAM_WAIT) >= 0);
        assertTrue("waited " + took,
                   took.compareTo(P4RuntimeClient.OLD_STREAM_WAIT.plusSeconds(5)) < 0);
    }
}
