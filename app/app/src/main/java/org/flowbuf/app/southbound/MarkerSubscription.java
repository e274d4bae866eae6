/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.proto.buffer.v1.BufferAgentGrpc;
import org.flowbuf.proto.buffer.v1.Event;
import org.flowbuf.proto.buffer.v1.EventKind;
import org.flowbuf.proto.buffer.v1.EventRule;
import org.flowbuf.proto.buffer.v1.MarkerMatch;
import org.flowbuf.proto.buffer.v1.SubscribeRequest;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A MARKER_SEEN subscription on one buffer. open() returns once the agent
 * sent its response headers, which it does only after the rule is live: a
 * marker injected after open() returns cannot be missed.
 */
final class MarkerSubscription implements MarkerWatch {

    private final ClientCall<SubscribeRequest, Event> call;
    private final CountDownLatch live = new CountDownLatch(1);
    private volatile Status closedWith;

    private MarkerSubscription(ClientCall<SubscribeRequest, Event> call) {
        this.call = call;
    }

    static MarkerSubscription open(String agent, String appId, Channel channel, BufferId id,
                                   MarkerPattern pattern, Runnable onSeen, Duration deadline) {
        ClientCall<SubscribeRequest, Event> call = channel.newCall(
                BufferAgentGrpc.getSubscribeMethod(), CallOptions.DEFAULT);
        MarkerSubscription sub = new MarkerSubscription(call);
        call.start(sub.listener(onSeen), new Metadata());
        call.sendMessage(request(appId, id, pattern));
        call.halfClose();
        call.request(1);
        sub.awaitLive(agent, deadline);
        return sub;
    }

    private static SubscribeRequest request(String appId, BufferId id, MarkerPattern pattern) {
        MarkerMatch match = MarkerMatch.newBuilder().setOffset(pattern.offset())
                .setValue(ByteString.copyFrom(pattern.value()))
                .setMask(ByteString.copyFrom(pattern.mask())).build();
        return SubscribeRequest.newBuilder().setAppId(appId)
                .addRules(EventRule.newBuilder().setRuleId("marker-" + id.id())
                                  .setBufferId(id.id())
                                  .setKind(EventKind.EVENT_KIND_MARKER_SEEN)
                                  .setMarker(match))
                .build();
    }

    private ClientCall.Listener<Event> listener(Runnable onSeen) {
        return new ClientCall.Listener<>() {
            @Override
            public void onHeaders(Metadata headers) {
                live.countDown();
            }

            @Override
            public void onMessage(Event event) {
                if (event.getKind() == EventKind.EVENT_KIND_MARKER_SEEN) {
                    onSeen.run();
                }
                call.request(1);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                closedWith = status;
                live.countDown();
            }
        };
    }

    private void awaitLive(String agent, Duration deadline) {
        boolean answered;
        try {
            answered = live.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answered = false;
        }
        Status closed = closedWith;
        if (answered && closed == null) {
            return;
        }
        close();
        if (closed != null) {
            throw StatusMapping.toException(agent, closed.asRuntimeException());
        }
        throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                   agent + ": marker watch not confirmed within " + deadline);
    }

    @Override
    public void close() {
        call.cancel("marker watch closed", null);
    }
}
