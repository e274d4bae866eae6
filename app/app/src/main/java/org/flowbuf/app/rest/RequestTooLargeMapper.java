/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.ExceptionMapper;
import javax.ws.rs.ext.Provider;

/**
 * A body that went past {@link RequestSizeFilter#MAX_BODY_BYTES} while a
 * resource read it (no Content-Length told in advance) is a 413, not the
 * 400 ONOS gives any other IOException.
 */
@Provider
public class RequestTooLargeMapper
        implements ExceptionMapper<RequestSizeFilter.RequestTooLargeException> {

    @Override
    public Response toResponse(RequestSizeFilter.RequestTooLargeException e) {
        return RequestSizeFilter.tooLarge(-1);
    }
}
