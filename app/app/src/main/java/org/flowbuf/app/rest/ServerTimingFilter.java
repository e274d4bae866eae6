/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.ContainerResponseContext;
import javax.ws.rs.container.ContainerResponseFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.ext.Provider;

/**
 * Tells the caller how long the controller worked on its request, as a W3C
 * {@code Server-Timing: app;dur=<ms>} header: from Jersey taking the request
 * to the response leaving the resource (service calls, agent RPCs and
 * P4Runtime writes included; the HTTP server's socket I/O and the JSON
 * serialisation not). A client's round trip minus this is the transport's
 * share, which is what the two differ by on a loaded or idle machine.
 */
@Provider
@PreMatching
public class ServerTimingFilter implements ContainerRequestFilter, ContainerResponseFilter {

    /** The response header. */
    public static final String HEADER = "Server-Timing";
    /** The metric name inside it. */
    public static final String METRIC = "app";

    private static final String STARTED = ServerTimingFilter.class.getName() + ".started";

    @Override
    public void filter(ContainerRequestContext request) {
        markStart(request);
    }

    /**
     * Marks when the controller took the request, unless an earlier request
     * filter did (one that may abort it before this filter runs).
     *
     * @param request the request
     */
    static void markStart(ContainerRequestContext request) {
        if (request.getProperty(STARTED) == null) {
            request.setProperty(STARTED, System.nanoTime());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object started = request.getProperty(STARTED);
        if (started instanceof Long) {
            response.getHeaders().add(HEADER, header(System.nanoTime() - (Long) started));
        }
    }

    /**
     * The header value for a duration.
     *
     * @param nanos time spent
     * @return e.g. {@code app;dur=0.412}
     */
    static String header(long nanos) {
        // What String.format's %.3f of nanos / 1e6 gives (half up), without
        // the formatter: it was 2 % of the host's CPU under mixed REST load.
        long micros = (Math.abs(nanos) + 500) / 1000;
        long fraction = micros % 1000;
        StringBuilder b = new StringBuilder(24).append(METRIC).append(";dur=");
        if (nanos < 0) {
            b.append('-');
        }
        b.append(micros / 1000).append('.');
        if (fraction < 100) {
            b.append(fraction < 10 ? "00" : "0");
        }
        return b.append(fraction).toString();
    }
}
