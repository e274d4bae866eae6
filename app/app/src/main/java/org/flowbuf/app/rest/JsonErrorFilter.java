/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.ObjectMapper;

import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerResponseContext;
import javax.ws.rs.container.ContainerResponseFilter;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.ext.Provider;

/**
 * Every error is ONOS's JSON body, typed application/json. ONOS's error
 * mappers build their {"code", "message"} body as a string without a type,
 * which Jersey then sends as whatever the client accepts first (text/html
 * for a browser) wherever the method declares no @Produces (a DELETE);
 * Jersey's own refusals (an unknown path, a method not
 * allowed) come with no body at all.
 */
@Provider
public class JsonErrorFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object entity = response.getEntity();
        if (response.getStatus() >= 400 && entity == null) {
            // Jersey's own refusals (no such path, method not allowed) come bare.
            response.setEntity(new ObjectMapper().createObjectNode()
                                       .put("code", response.getStatus())
                                       .put("message", response.getStatusInfo().getReasonPhrase())
                                       .toString(),
                               null, MediaType.APPLICATION_JSON_TYPE);
            return;
        }
        if (response.getStatus() >= 400 && entity instanceof String
                && ((String) entity).startsWith("{")) {
            response.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE,
                                            MediaType.APPLICATION_JSON_TYPE);
        }
    }
}
