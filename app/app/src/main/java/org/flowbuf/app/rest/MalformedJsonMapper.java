/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.onlab.rest.exceptions.AbstractMapper;

import javax.ws.rs.core.Response;
import javax.ws.rs.ext.Provider;

/**
 * A request body that is not JSON is a bad request, not a server error.
 */
@Provider
public class MalformedJsonMapper extends AbstractMapper<JsonProcessingException> {

    @Override
    protected Response.Status responseStatus() {
        return Response.Status.BAD_REQUEST;
    }

    @Override
    protected String messageFrom(Throwable e) {
        return "malformed JSON: " + ((JsonProcessingException) e).getOriginalMessage();
    }
}
