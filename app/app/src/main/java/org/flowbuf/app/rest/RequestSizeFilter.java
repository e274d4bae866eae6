/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.ObjectMapper;

import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.core.HttpHeaders;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import javax.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Bounds request bodies: every FlowBuf request is a small JSON object (a
 * 1,024-flow batch is about 100 KiB), so a body over {@link #MAX_BODY_BYTES}
 * is answered 413 with the JSON error body before anything reads it (its
 * Content-Length says so) or as soon as reading passes the bound (a chunked
 * body), instead of being parsed into memory.
 */
@Provider
@PreMatching
public class RequestSizeFilter implements ContainerRequestFilter {

    /** The largest request body accepted, in bytes (1 MiB). */
    public static final int MAX_BODY_BYTES = 1 << 20;

    @Override
    public void filter(ContainerRequestContext request) {
        // A refusal is timed too, whichever of the two filters runs first.
        ServerTimingFilter.markStart(request);
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                declared = -1;
            }
            if (declared > MAX_BODY_BYTES) {
                request.abortWith(tooLarge(declared));
                return;
            }
        }
        if (request.hasEntity()) {
            request.setEntityStream(new Bounded(request.getEntityStream()));
        }
    }

    /**
     * The 413 response, ONOS's error body.
     *
     * @param bytes the body's size, or -1 when only known to be over the bound
     * @return the response
     */
    static Response tooLarge(long bytes) {
        String message = (bytes < 0 ? "the request body" : "a request body of " + bytes
                + " bytes") + " is over the limit of " + MAX_BODY_BYTES + " bytes";
        return Response.status(Response.Status.REQUEST_ENTITY_TOO_LARGE)
                .type(MediaType.APPLICATION_JSON)
                .entity(new ObjectMapper().createObjectNode()
                                .put("code", Response.Status.REQUEST_ENTITY_TOO_LARGE.getStatusCode())
                                .put("message", message).toString())
                .build();
    }

    /** A body stream that refuses to go past the bound. */
    private static final class Bounded extends FilterInputStream {
        private long left = MAX_BODY_BYTES;

        Bounded(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long n) throws RequestTooLargeException {
            left -= n;
            if (left < 0) {
                throw new RequestTooLargeException();
            }
        }
    }

    /** Reading a body went past the bound; mapped to 413. */
    public static final class RequestTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        RequestTooLargeException() {
            super("the request body is over the limit of " + MAX_BODY_BYTES + " bytes");
        }
    }
}
