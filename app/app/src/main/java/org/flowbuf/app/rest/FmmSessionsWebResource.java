/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.api.codec.JsonFields;
import org.onosproject.net.DeviceId;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriBuilder;
import java.io.IOException;
import java.io.InputStream;

/**
 * Fast mobility management: open a session, start a handoff, report the
 * UE's attach, close the session.
 */
@Path("apps/fmm/sessions")
public class FmmSessionsWebResource extends AbstractWebResource {

    /**
     * Lists sessions.
     *
     * @onos.rsModel FmmSessionList
     * @return 200 OK with {"sessions": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSessions() {
        return ok(encodeArray(FmmSession.class, "sessions",
                              get(FmmService.class).sessions())).build();
    }

    /**
     * One session.
     *
     * @onos.rsModel FmmSession
     * @param id session id
     * @return 200 OK with the session; 400, 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSession(@PathParam("id") String id) {
        long sessionId = RequestBodies.id("session", id);
        FmmSession s = get(FmmService.class).session(sessionId).orElseThrow(
                () -> FlowBufException.notFound("no FMM session %d", sessionId));
        return ok(encode(s)).build();
    }

    /**
     * Opens a session. Body: {"downlink": filter with the UE's /32 ipv4Dst,
     * "anchorIn": "device:sa/1", "cells": [{"anchor", "in", "ue"}, ...],
     * "serving": "device:s1", "windowPackets": 4096 (optional)}.
     *
     * @onos.rsModel FmmSessionRequest
     * @param body request
     * @return 201 Created with the session (ATTACHED); 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response open(InputStream body) throws IOException {
        FmmPlan plan = codec(FmmPlan.class).decode(RequestBodies.object(mapper(), body), this);
        FmmSession s = get(FmmService.class).open(plan);
        return Response.created(UriBuilder.fromPath("apps/fmm/sessions")
                                        .path(Long.toString(s.id())).build())
                .entity(encode(s)).build();
    }

    /**
     * Starts a handoff. Body: {"target": "device:s2"}.
     *
     * @onos.rsModel FmmHandoffRequest
     * @param id   session id
     * @param body request
     * @return 200 OK with the session (DETACHED); 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{id}/handoff")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response handoff(@PathParam("id") String id, InputStream body) throws IOException {
        long sessionId = RequestBodies.id("session", id);
        ObjectNode json = RequestBodies.object(mapper(), body);
        DeviceId target = RequestBodies.deviceId(JsonFields.text(json, "target"));
        return ok(encode(get(FmmService.class).handoff(sessionId, target))).build();
    }

    /**
     * The UE attached at the handoff's target.
     *
     * @param id session id
     * @return 200 OK with the session (ATTACHED); 400, 404, 409, 503
     */
    @POST
    @Path("{id}/attach")
    @Produces(MediaType.APPLICATION_JSON)
    public Response attach(@PathParam("id") String id) {
        return ok(encode(get(FmmService.class).attach(RequestBodies.id("session", id)))).build();
    }

    /**
     * Closes a session.
     *
     * @param id session id
     * @return 200 OK with the session (CLOSED, or FAILED with what stayed); 400, 404, 409
     */
    @DELETE
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response close(@PathParam("id") String id) {
        return ok(encode(get(FmmService.class).close(RequestBodies.id("session", id)))).build();
    }

    private ObjectNode encode(FmmSession s) {
        return codec(FmmSession.class).encode(s, this);
    }
}
