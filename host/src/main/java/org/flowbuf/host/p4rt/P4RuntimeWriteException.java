/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.Status;

import java.util.List;

/**
 * A Write, pipeline push or arbitration the target refused, with the
 * canonical code of the first failed update and every update's message.
 */
public final class P4RuntimeWriteException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status.Code code;
    private final List<String> updateErrors;

    /**
     * Creates the exception.
     *
     * @param code         canonical code of the (first failed) update
     * @param message      what failed
     * @param updateErrors message of each failed update, in request order
     */
    public P4RuntimeWriteException(Status.Code code, String message, List<String> updateErrors) {
        super(message);
        this.code = code;
        this.updateErrors = List.copyOf(updateErrors);
    }

    /**
     * Canonical code of the failure.
     *
     * @return code
     */
    public Status.Code code() {
        return code;
    }

    /**
     * Messages of the failed updates.
     *
     * @return messages
     */
    public List<String> updateErrors() {
        return updateErrors;
    }
}
