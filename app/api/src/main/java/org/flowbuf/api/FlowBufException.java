/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/**
 * A Buffer Service request that was refused; nothing was changed. The reason
 * tells callers (REST, CLI) which kind of error to report.
 */
public class FlowBufException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a request was refused. */
    public enum Reason {
        /** Malformed request: bad id, size or argument. */
        INVALID,
        /** The buffer, vport, device or intent does not exist. */
        NOT_FOUND,
        /** The object is in a state that does not allow the request. */
        CONFLICT,
        /** The object belongs to another application. */
        FORBIDDEN,
        /** Memory, quota or object limits are reached. */
        EXHAUSTED,
        /** The device's agent cannot be reached; retrying may help. */
        UNAVAILABLE
    }

    private final Reason reason;

    /**
     * Creates an exception.
     *
     * @param reason  why the request was refused
     * @param message what was wrong, for the caller
     */
    public FlowBufException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /**
     * Creates an exception caused by another one.
     *
     * @param reason  why the request was refused
     * @param message what was wrong, for the caller
     * @param cause   the underlying failure
     */
    public FlowBufException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /**
     * Returns why the request was refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Shorthand for an INVALID request.
     *
     * @param format message format
     * @param args   message arguments
     * @return the exception
     */
    public static FlowBufException invalid(String format, Object... args) {
        return new FlowBufException(Reason.INVALID, String.format(format, args));
    }

    /**
     * Shorthand for a NOT_FOUND request.
     *
     * @param format message format
     * @param args   message arguments
     * @return the exception
     */
    public static FlowBufException notFound(String format, Object... args) {
        return new FlowBufException(Reason.NOT_FOUND, String.format(format, args));
    }

    /**
     * Shorthand for a CONFLICT request.
     *
     * @param format message format
     * @param args   message arguments
     * @return the exception
     */
    public static FlowBufException conflict(String format, Object... args) {
        return new FlowBufException(Reason.CONFLICT, String.format(format, args));
    }
}
