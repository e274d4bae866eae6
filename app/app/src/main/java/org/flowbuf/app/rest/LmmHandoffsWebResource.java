/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.LmmService;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
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
 * LTE mobility management: start a handoff, report the UE's re-attach.
 */
@Path("apps/lmm/handoffs")
public class LmmHandoffsWebResource extends AbstractWebResource {

    /**
     * Lists handoffs.
     *
     * @onos.rsModel LmmHandoffList
     * @return 200 OK with {"handoffs": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getHandoffs() {
        return ok(encodeArray(LmmHandoff.class, "handoffs",
                              get(LmmService.class).handoffs())).build();
    }

    /**
     * One handoff.
     *
     * @onos.rsModel LmmHandoff
     * @param id handoff id
     * @return 200 OK with the handoff; 400, 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getHandoff(@PathParam("id") String id) {
        long handoffId = RequestBodies.id("handoff", id);
        LmmHandoff h = get(LmmService.class).handoff(handoffId).orElseThrow(
                () -> FlowBufException.notFound("no handoff %d", handoffId));
        return ok(codec(LmmHandoff.class).encode(h, this)).build();
    }

    /**
     * Starts a handoff. Body: {"downlink": filter with the UE's /32 ipv4Dst,
     * "anchor": {"in", "toSource", "toTarget"}, "source": {"in", "x2"},
     * "target": {"in", "x2", "ue"}}, ports as "device:id/port".
     *
     * @onos.rsModel LmmHandoffRequest
     * @param body request
     * @return 201 Created with the handoff (DETACHED); 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response start(InputStream body) throws IOException {
        HandoffPlan plan = codec(HandoffPlan.class).decode(RequestBodies.object(mapper(), body),
                                                           this);
        LmmHandoff h = get(LmmService.class).start(plan);
        return Response.created(UriBuilder.fromPath("apps/lmm/handoffs")
                                        .path(Long.toString(h.id())).build())
                .entity(codec(LmmHandoff.class).encode(h, this)).build();
    }

    /**
     * The UE re-attached at the target eNB.
     *
     * @param id handoff id
     * @return 200 OK with the handoff (ATTACHED, or FAILED); 400, 404, 409
     */
    @POST
    @Path("{id}/attach")
    @Produces(MediaType.APPLICATION_JSON)
    public Response attach(@PathParam("id") String id) {
        return ok(codec(LmmHandoff.class).encode(
                get(LmmService.class).attach(RequestBodies.id("handoff", id)), this)).build();
    }
}
