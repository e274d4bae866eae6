/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import io.grpc.Status;

import java.util.List;
import java.util.Optional;

/**
 * A Write, pipeline push or arbitration the target refused, with the
 * canonical code of the first failed update and every update's message.
 */
public final class P4RuntimeWriteException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status.Code code;
    private final List<String> updateErrors;
    private final transient Optional<List<Integer>> failedUpdates;

    /**
     * Creates the exception.
     *
     * @param code         canonical code of the (first failed) update
     * @param message      what failed
     * @param updateErrors message of each failed update, in request order
     */
    public P4RuntimeWriteException(Status.Code code, String message, List<String> updateErrors) {
        this(code, message, updateErrors, null);
    }

    /**
     * Creates the exception of a Write that answered per update.
     *
     * @param code          canonical code of the first failed update
     * @param message       what failed
     * @param updateErrors  message of each failed update, in request order
     * @param failedUpdates indexes of the failed updates; null when the
     *                      target did not say which failed
     */
    public P4RuntimeWriteException(Status.Code code, String message, List<String> updateErrors,
                                   List<Integer> failedUpdates) {
        super(message);
        this.code = code;
        this.updateErrors = List.copyOf(updateErrors);
        this.failedUpdates = Optional.ofNullable(failedUpdates).map(List::copyOf);
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

    /**
     * Which updates of the Write failed (P4Runtime answers with one status
     * per update, in request order); the others were applied.
     *
     * @return indexes of the failed updates, or empty when unknown
     */
    public Optional<List<Integer>> failedUpdates() {
        return failedUpdates;
    }
}
