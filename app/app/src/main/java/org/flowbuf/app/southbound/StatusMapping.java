/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufException.Reason;

import java.nio.channels.ClosedChannelException;

/** The southbound error model (see the .proto header) as Buffer Service reasons. */
final class StatusMapping {

    private StatusMapping() {
    }

    static Reason reasonOf(Status.Code code) {
        switch (code) {
            case INVALID_ARGUMENT:
            case UNIMPLEMENTED:
            case OUT_OF_RANGE:
                return Reason.INVALID;
            case NOT_FOUND:
                return Reason.NOT_FOUND;
            case ALREADY_EXISTS:
            case FAILED_PRECONDITION:
            case ABORTED:
                return Reason.CONFLICT;
            case PERMISSION_DENIED:
            case UNAUTHENTICATED:
                return Reason.FORBIDDEN;
            case RESOURCE_EXHAUSTED:
                return Reason.EXHAUSTED;
            default:
                return Reason.UNAVAILABLE;
        }
    }

    static FlowBufException toException(String agent, StatusRuntimeException e) {
        Status status = e.getStatus();
        String detail = status.getDescription() == null ? status.getCode().name()
                : status.getDescription();
        // The transport's own failures say that the agent did not answer, not
        // what it answered: name it as unreachable, whatever gRPC's wording.
        String message = unreachable(status) ? "agent " + agent + " is unreachable: "
                + detail : "agent " + agent + ": " + detail;
        return new FlowBufException(reasonOf(status.getCode()), message, e);
    }

    /**
     * Whether a status says the agent did not answer (it is down, not
     * listening, or too slow), as opposed to an answer of the agent.
     *
     * @param status the call's status
     * @return true for UNAVAILABLE and DEADLINE_EXCEEDED, and for a
     *         connection closed under the call (grpc-netty reports that as
     *         UNKNOWN "channel closed", caused by a ClosedChannelException)
     */
    static boolean unreachable(Status status) {
        Status.Code code = status.getCode();
        return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                || status.getCause() instanceof ClosedChannelException;
    }

    static boolean retryable(StatusRuntimeException e) {
        return e.getStatus().getCode() == Status.Code.UNAVAILABLE;
    }
}
