/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.onlab.rest.exceptions.AbstractMapper;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.Provider;

/**
 * Maps a refused request to its HTTP status with ONOS's JSON error body
 * ({"code": ..., "message": ...}).
 */
@Provider
public class FlowBufExceptionMapper extends AbstractMapper<FlowBufException> {

    @Override
    protected Response.Status responseStatus() {
        return statusOf(((FlowBufException) error).reason());
    }

    /**
     * The HTTP status of a refusal.
     *
     * @param reason why the service refused
     * @return status
     */
    static Response.Status statusOf(FlowBufException.Reason reason) {
        switch (reason) {
            case INVALID:
                return Response.Status.BAD_REQUEST;
            case NOT_FOUND:
                return Response.Status.NOT_FOUND;
            case FORBIDDEN:
                return Response.Status.FORBIDDEN;
            case CONFLICT:
            case EXHAUSTED:
                // Both are about the current state of the device, not the request's form.
                return Response.Status.CONFLICT;
            case UNAVAILABLE:
            default:
                return Response.Status.SERVICE_UNAVAILABLE;
        }
    }
}
