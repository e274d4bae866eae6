/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.flowbuf.api.FlowBufException;
import org.junit.Test;

import java.nio.channels.ClosedChannelException;

import static org.junit.Assert.assertEquals;

/**
 * An agent that did not answer is named unreachable, whatever words gRPC
 * used; an agent's own answer is passed on as it said it.
 */
public class StatusMappingTest {

    private static FlowBufException mapped(Status status) {
        return StatusMapping.toException("a:1", new StatusRuntimeException(status));
    }

    @Test
    public void transportFailuresAreUnreachable() {
        FlowBufException refused = mapped(Status.UNAVAILABLE.withDescription("io exception"));
        assertEquals("agent a:1 is unreachable: io exception", refused.getMessage());
        assertEquals(FlowBufException.Reason.UNAVAILABLE, refused.reason());
        // The agent killed while a call was on its connection: grpc-netty's words.
        FlowBufException closed = mapped(Status.UNKNOWN.withDescription("channel closed")
                                                .withCause(new ClosedChannelException()));
        assertEquals("agent a:1 is unreachable: channel closed", closed.getMessage());
        assertEquals(FlowBufException.Reason.UNAVAILABLE, closed.reason());
    }

    @Test
    public void anAgentsOwnAnswerIsPassedOn() {
        FlowBufException answered = mapped(Status.UNKNOWN.withDescription("boom"));
        assertEquals("agent a:1: boom", answered.getMessage());
        FlowBufException missing = mapped(Status.NOT_FOUND.withDescription("no buffer b1"));
        assertEquals("agent a:1: no buffer b1", missing.getMessage());
        assertEquals(FlowBufException.Reason.NOT_FOUND, missing.reason());
    }
}
