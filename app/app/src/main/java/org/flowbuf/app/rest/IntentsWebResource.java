/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.codec.JsonFields;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Pause and resume intents (the paper's pause_flow / resume_flow).
 */
@Path("intents")
public class IntentsWebResource extends AbstractWebResource {

    /**
     * Lists every intent, installed or not.
     *
     * @onos.rsModel IntentList
     * @return 200 OK with {"intents": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getIntents() {
        List<FlowBufIntent> intents = new ArrayList<>(
                get(FlowBufIntentService.class).getIntents());
        intents.sort(Comparator.comparing(i -> i.id().id()));
        return ok(encodeArray(FlowBufIntent.class, "intents", intents)).build();
    }

    /**
     * Shows one intent.
     *
     * @onos.rsModel Intent
     * @param intentId intent id
     * @return 200 OK with the intent; 400 for a bad id, 404 when unknown
     */
    @GET
    @Path("{intentId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getIntent(@PathParam("intentId") String intentId) {
        IntentId id = IntentId.intentId(RequestBodies.id("intent", intentId));
        FlowBufIntent intent = get(FlowBufIntentService.class).getIntent(id).orElseThrow(
                () -> FlowBufException.notFound("no intent %s", intentId));
        return ok(codec(FlowBufIntent.class).encode(intent, this)).build();
    }

    /**
     * Pauses a flow. Body: {"deviceId": "device:s1", "inPort": 1,
     * "filter": {"ipv4Src": "10.0.0.1/32", "ipProto": 17, ...},
     * "bufferId": "b1" (optional: reuse or allocate), "owner": "..."}.
     * A filter that names no IPv4 field pauses every IPv4 packet of the
     * port: it must say so with "all": true, else the pause is refused (400).
     *
     * @onos.rsModel PauseRequest
     * @param body request
     * @return 201 Created with the installed intent; 400, 403, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("pause")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response pause(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        Request r = new Request(json, "inPort");
        return created(get(FlowBufIntentService.class).pause(r.device, r.port, r.filter, r.buffer,
                                                             r.owner));
    }

    /**
     * Resumes a flow. Body: {"deviceId": "device:s1", "outPort": 2,
     * "filter": {...}, "bufferId": "b1" (optional), "owner": "..."}.
     *
     * @onos.rsModel ResumeRequest
     * @param body request
     * @return 201 Created with the installed intent; 400, 403, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("resume")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response resume(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        Request r = new Request(json, "outPort");
        return created(get(FlowBufIntentService.class).resume(r.device, r.port, r.filter, r.buffer,
                                                              r.owner));
    }

    /**
     * Pauses many flows into one buffer in one step. Body: {"deviceId",
     * "bufferId", "flows": [{"inPort": 1, "filter": {...}}, ...] (1 to
     * 1,024), "owner"?}. All or nothing.
     *
     * @onos.rsModel PauseBatchRequest
     * @param body request
     * @return 201 Created with {"intents": [...]}, one per flow in order;
     *         400, 403, 404, 409, 503 with a message, and nothing installed
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("pause-batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response pauseBatch(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        List<FlowFilter> flows = new ArrayList<>();
        for (ObjectNode flow : RequestBodies.objects(json, "flows")) {
            flows.add(filter(flow).atInPort(
                    PortNumber.portNumber(JsonFields.number(flow, "inPort"))));
        }
        return createdAll(get(FlowBufIntentService.class).pauseAll(
                RequestBodies.deviceId(JsonFields.text(json, "deviceId")), flows,
                RequestBodies.bufferId(JsonFields.text(json, "bufferId")),
                RequestBodies.owner(json)));
    }

    /**
     * Resumes many flows from one buffer in one step. Body: {"deviceId",
     * "bufferId", "outPort", "filters": [{...}, ...] (1 to 1,024),
     * "owner"?}. All or nothing.
     *
     * @onos.rsModel ResumeBatchRequest
     * @param body request
     * @return 201 Created with {"intents": [...]}; 400, 403, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("resume-batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response resumeBatch(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        List<FlowFilter> filters = new ArrayList<>();
        for (ObjectNode filter : RequestBodies.objects(json, "filters")) {
            filters.add(codec(FlowFilter.class).decode(filter, this));
        }
        return createdAll(get(FlowBufIntentService.class).resumeAll(
                RequestBodies.deviceId(JsonFields.text(json, "deviceId")),
                PortNumber.portNumber(JsonFields.number(json, "outPort")), filters,
                RequestBodies.bufferId(JsonFields.text(json, "bufferId")),
                RequestBodies.owner(json)));
    }

    private Response createdAll(List<FlowBufIntent> intents) {
        return Response.status(Response.Status.CREATED)
                .entity(encodeArray(FlowBufIntent.class, "intents", intents)).build();
    }

    private FlowFilter filter(ObjectNode json) {
        return codec(FlowFilter.class).decode(
                JsonFields.optionalObject(json, "filter").orElseThrow(
                        () -> FlowBufException.invalid("\"filter\" is required")), this);
    }

    /**
     * Withdraws an installed intent and removes its rules.
     *
     * @param intentId intent id
     * @param owner    owner of the intent (optional, default org.flowbuf.rest)
     * @return 204 No Content; 400, 403, 404, 409 with a message
     */
    @DELETE
    @Path("{intentId}")
    public Response withdraw(@PathParam("intentId") String intentId,
                             @QueryParam("owner") @DefaultValue(RequestBodies.DEFAULT_OWNER)
                                     String owner) {
        get(FlowBufIntentService.class).withdraw(IntentId.intentId(RequestBodies.id("intent", intentId)), owner);
        return Response.noContent().build();
    }

    private Response created(FlowBufIntent intent) {
        return Response.created(UriBuilder.fromPath("intents")
                                        .path(Long.toString(intent.id().id())).build())
                .entity(codec(FlowBufIntent.class).encode(intent, this)).build();
    }


    /** The fields a pause and a resume share. */
    private final class Request {
        private final DeviceId device;
        private final PortNumber port;
        private final FlowFilter filter;
        private final Optional<BufferId> buffer;
        private final String owner;

        Request(ObjectNode json, String portField) {
            this.device = RequestBodies.deviceId(JsonFields.text(json, "deviceId"));
            this.port = PortNumber.portNumber(JsonFields.number(json, portField));
            this.filter = filter(json);
            this.buffer = JsonFields.optionalText(json, "bufferId").map(RequestBodies::bufferId);
            this.owner = RequestBodies.owner(json);
        }
    }
}
