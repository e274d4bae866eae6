/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.api.codec.JsonFields;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
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
 * The controller-buffering baseline (packets punted to the controller and
 * replayed by packet-out), for comparisons with FlowBuf in the same lab.
 */
@Path("baselines/controller-holds")
public class ControllerHoldsWebResource extends AbstractWebResource {

    /**
     * Lists the controller holds.
     *
     * @onos.rsModel ControllerHoldList
     * @return 200 OK with {"holds": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getHolds() {
        ObjectNode root = mapper().createObjectNode();
        ArrayNode holds = root.putArray("holds");
        get(ControllerBufferingService.class).holds().forEach(h -> holds.add(encode(h)));
        return ok(root).build();
    }

    /**
     * Starts holding a flow in the controller: {"deviceId", "inPort", "filter"}.
     *
     * @onos.rsModel FlowRequest
     * @param body request
     * @return 201 Created with the hold; 400, 404, 409 with a message
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response hold(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        FlowFilter flow = codec(FlowFilter.class).decode(
                JsonFields.optionalObject(json, "filter").orElseThrow(
                        () -> FlowBufException.invalid("\"filter\" is required")), this);
        ControllerHold hold = get(ControllerBufferingService.class).hold(
                RequestBodies.deviceId(JsonFields.text(json, "deviceId")),
                PortNumber.portNumber(JsonFields.number(json, "inPort")), flow);
        return Response.created(UriBuilder.fromPath("baselines/controller-holds")
                                        .path(Long.toString(hold.id())).build())
                .entity(encode(hold)).build();
    }

    /**
     * Sends a hold's packets out of a port by packet-out: {"port"}, on the
     * hold's switch unless "deviceId" names another.
     *
     * @onos.rsModel HoldReleaseRequest
     * @param id   hold id
     * @param body request
     * @return 200 OK with the hold; 400, 404, 409 with a message
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{id}/release")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response release(@PathParam("id") String id, InputStream body) throws IOException {
        long holdId = RequestBodies.id("controller hold", id);
        ObjectNode json = RequestBodies.object(mapper(), body);
        PortNumber port = PortNumber.portNumber(JsonFields.number(json, "port"));
        ControllerBufferingService service = get(ControllerBufferingService.class);
        DeviceId device = JsonFields.optionalText(json, "deviceId").map(RequestBodies::deviceId)
                .orElseGet(() -> service.holds().stream().filter(h -> h.id() == holdId)
                        .findFirst().map(ControllerHold::deviceId).orElseThrow(
                                () -> FlowBufException.notFound("no controller hold %d", holdId)));
        return ok(encode(service.release(holdId, new ConnectPoint(device, port)))).build();
    }

    private ObjectNode encode(ControllerHold hold) {
        ObjectNode node = mapper().createObjectNode()
                .put("id", hold.id())
                .put("deviceId", hold.deviceId().toString())
                .put("inPort", hold.inPort().toLong())
                .put("state", hold.state().name())
                .put("heldPackets", hold.heldPackets())
                .put("heldBytes", hold.heldBytes())
                .put("packetIns", hold.packetIns())
                .put("packetOuts", hold.packetOuts())
                .put("packetInMicros", hold.packetInNanos() / 1_000);
        node.set("filter", codec(FlowFilter.class).encode(hold.filter(), this));
        return node;
    }
}
