/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.junit.Test;
import p4.v1.P4RuntimeOuterClass.Error;

import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** How a refused Write is read: which updates failed, so the others can be undone. */
public class P4RuntimeWriteFailureTest {

    private static Any error(Status.Code code, String message) {
        return Any.pack(Error.newBuilder().setCanonicalCode(code.value()).setMessage(message)
                                .build());
    }

    @Test
    public void aWriteAnsweredPerUpdateNamesTheFailedOnes() {
        com.google.rpc.Status status = com.google.rpc.Status.newBuilder()
                .setCode(Status.Code.UNKNOWN.value()).setMessage("write failed")
                .addDetails(error(Status.Code.OK, ""))
                .addDetails(error(Status.Code.RESOURCE_EXHAUSTED, "table full"))
                .addDetails(error(Status.Code.OK, ""))
                .addDetails(error(Status.Code.ALREADY_EXISTS, "duplicate")).build();
        StatusRuntimeException thrown = StatusProto.toStatusRuntimeException(status);
        P4RuntimeWriteException e = P4RuntimeClient.failure("write", thrown);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.code());
        assertEquals(Optional.of(List.of(1, 3)), e.failedUpdates());
        assertEquals(2, e.updateErrors().size());
        assertTrue(e.getMessage(), e.getMessage().contains("table full"));
    }

    @Test
    public void aWriteRefusedAsAWholeDoesNotSayWhichWereApplied() {
        P4RuntimeWriteException e = P4RuntimeClient.failure(
                "write", Status.UNAVAILABLE.withDescription("switch gone").asRuntimeException());
        assertEquals(Status.Code.UNAVAILABLE, e.code());
        assertEquals(Optional.empty(), e.failedUpdates());
    }
}
