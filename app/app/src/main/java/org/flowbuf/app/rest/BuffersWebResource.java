/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.codec.JsonFields;
import org.onosproject.net.DeviceId;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import javax.ws.rs.core.UriBuilder;
import javax.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Buffers: list, create, move to a state, remove, statistics and events
 * (the task-level API).
 */
@Path("buffers")
public class BuffersWebResource extends AbstractWebResource {

    // The request's URI, injected as a field: a method parameter would be
    // listed in the OpenAPI document (ONOS's generator takes it for a body).
    @Context
    private UriInfo uri;

    /**
     * Lists the buffers of every device.
     *
     * @onos.rsModel BufferList
     * @return 200 OK with {"buffers": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getAllBuffers() {
        BufferService service = get(BufferService.class);
        ObjectNode root = mapper().createObjectNode();
        ArrayNode buffers = root.putArray("buffers");
        service.getDevices().stream().sorted(Comparator.comparing(DeviceId::toString))
                .flatMap(d -> service.getBuffers(d).stream())
                .forEach(b -> buffers.add(codec(Buffer.class).encode(b, this)));
        return ok(root).build();
    }

    /**
     * Lists the buffers of a device.
     *
     * @onos.rsModel BufferList
     * @param deviceId device id
     * @return 200 OK with {"buffers": [...]}; 404 for a device without agent
     */
    @GET
    @Path("{deviceId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getBuffers(@PathParam("deviceId") String deviceId) {
        BufferService service = get(BufferService.class);
        DeviceId device = DevicesWebResource.known(service, deviceId);
        return ok(encodeArray(Buffer.class, "buffers", service.getBuffers(device))).build();
    }

    /**
     * Shows one buffer.
     *
     * @onos.rsModel Buffer
     * @param deviceId device id
     * @param bufferId buffer id
     * @return 200 OK with the buffer; 404 when unknown
     */
    @GET
    @Path("{deviceId}/{bufferId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getBuffer(@PathParam("deviceId") String deviceId,
                              @PathParam("bufferId") String bufferId) {
        return ok(codec(Buffer.class).encode(existing(deviceId, bufferId), this)).build();
    }

    /**
     * Creates a buffer bound to a free vport of the device.
     * Body: {"id": "b1", "state": "BUFFERING", "owner": "...", "spec": {...}};
     * state defaults to FREE, owner to org.flowbuf.rest, spec to BufferSpec.defaults().
     *
     * @onos.rsModel BufferCreateRequest
     * @param deviceId device id
     * @param body     request
     * @return 201 Created with the buffer; 400, 404, 409, 503 with a message
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{deviceId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response createBuffer(@PathParam("deviceId") String deviceId, InputStream body)
            throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        DeviceId device = RequestBodies.deviceId(deviceId);
        BufferId id = RequestBodies.bufferId(JsonFields.text(json, "id"));
        BufferState state = JsonFields.optionalEnum(json, "state", BufferState.class)
                .orElse(BufferState.FREE);
        BufferSpec spec = JsonFields.optionalObject(json, "spec")
                .map(s -> codec(BufferSpec.class).decode(s, this))
                .orElse(BufferSpec.defaults());
        Buffer buffer = get(BufferService.class).createBuffer(device, id, RequestBodies.owner(json),
                                                              spec, state);
        return Response.created(UriBuilder.fromPath("buffers").path(device.toString())
                                        .path(id.id()).build())
                .entity(codec(Buffer.class).encode(buffer, this)).build();
    }

    /**
     * Purges a buffer up to a packet (FMM's inter-buffer synchronisation).
     * Body: {"ipv4Id": 0..65535, "l4Checksum": 0..65535, "inclusive"?: false,
     * "owner"?}.
     *
     * @onos.rsModel PurgeRequest
     * @param deviceId device id
     * @param bufferId buffer id
     * @param body     request
     * @return 200 OK with {"found", "purgedPackets"}; 400, 403, 404, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{deviceId}/{bufferId}/purge")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response purge(@PathParam("deviceId") String deviceId,
                          @PathParam("bufferId") String bufferId, InputStream body)
            throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        PacketId packet = PacketId.of(JsonFields.number(json, "ipv4Id"),
                                      JsonFields.number(json, "l4Checksum"));
        Optional<Long> purged = get(BufferService.class).purgeUpTo(
                RequestBodies.deviceId(deviceId), RequestBodies.bufferId(bufferId),
                RequestBodies.owner(json), packet, JsonFields.flag(json, "inclusive"));
        return ok(mapper().createObjectNode().put("found", purged.isPresent())
                          .put("purgedPackets", purged.orElse(0L))).build();
    }

    /**
     * Moves a buffer to a state with the fewest agent calls.
     * Body: {"state": "FORWARDING", "owner": "..."}.
     *
     * @onos.rsModel BufferStateRequest
     * @param deviceId device id
     * @param bufferId buffer id
     * @param body     request
     * @return 200 OK with the buffer; 400, 403, 404, 409, 503 with a message
     * @throws IOException when the body cannot be read
     */
    @PUT
    @Path("{deviceId}/{bufferId}/state")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response moveBuffer(@PathParam("deviceId") String deviceId,
                               @PathParam("bufferId") String bufferId, InputStream body)
            throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        BufferState state = requiredState(json);
        Buffer moved = get(BufferService.class).moveBuffer(
                RequestBodies.deviceId(deviceId), RequestBodies.bufferId(bufferId),
                RequestBodies.owner(json), state);
        return ok(codec(Buffer.class).encode(moved, this)).build();
    }

    /**
     * Arms a move on the agent: the next packet that enters this buffer (the
     * trigger) moves another one, first purged to the receive report that
     * packet carries when "purgeToReport" is true. Body: {"move": "b2",
     * "state": "FORWARDING" or "BUFFERING", "purgeToReport"?: false, "owner"?}.
     *
     * @onos.rsModel TriggerRequest
     * @param deviceId device id
     * @param bufferId the trigger buffer's id
     * @param body     request
     * @return 200 OK with {"trigger", "move", "state", "purgeToReport"}; 400,
     *         403, 404, 503 with a message
     * @throws IOException when the body cannot be read
     */
    @PUT
    @Path("{deviceId}/{bufferId}/trigger")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response armMove(@PathParam("deviceId") String deviceId,
                            @PathParam("bufferId") String bufferId, InputStream body)
            throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        BufferId moved = RequestBodies.bufferId(JsonFields.text(json, "move"));
        BufferState state = requiredState(json);
        boolean purgeToReport = JsonFields.flag(json, "purgeToReport");
        get(BufferService.class).armMove(RequestBodies.deviceId(deviceId),
                                         RequestBodies.bufferId(bufferId), moved,
                                         RequestBodies.owner(json), state, purgeToReport);
        return ok(mapper().createObjectNode().put("trigger", bufferId).put("move", moved.id())
                          .put("state", state.name()).put("purgeToReport", purgeToReport))
                .build();
    }

    /**
     * Disarms what the buffer's next packet would have moved.
     *
     * @param deviceId device id
     * @param bufferId the trigger buffer's id
     * @param owner    owner of the buffer (optional, default org.flowbuf.rest)
     * @return 200 OK with {"wasArmed"} (false: it had fired, or nothing was
     *         armed) and, when the move had fired, "fire": {"moved",
     *         "reportSync", "purgedPackets"}; 403, 404, 503 with a message
     */
    @DELETE
    @Path("{deviceId}/{bufferId}/trigger")
    @Produces(MediaType.APPLICATION_JSON)
    public Response disarm(@PathParam("deviceId") String deviceId,
                           @PathParam("bufferId") String bufferId,
                           @QueryParam("owner") @DefaultValue(RequestBodies.DEFAULT_OWNER)
                                   String owner) {
        Disarmed found = get(BufferService.class).disarm(RequestBodies.deviceId(deviceId),
                                                         RequestBodies.bufferId(bufferId), owner);
        ObjectNode json = mapper().createObjectNode().put("wasArmed", found.wasArmed());
        found.fire().ifPresent(
                fire -> json.set("fire", codec(TriggerFire.class).encode(fire, this)));
        return ok(json).build();
    }

    /**
     * Removes a buffer; it must be FREE unless discard=true.
     *
     * @param deviceId device id
     * @param bufferId buffer id
     * @param owner    owner of the buffer (optional, default org.flowbuf.rest)
     * @param discard  drop held packets (optional, default false; true or false)
     * @return 204 No Content; 400, 403, 404, 409, 503 with a message
     */
    @DELETE
    @Path("{deviceId}/{bufferId}")
    public Response removeBuffer(@PathParam("deviceId") String deviceId,
                                 @PathParam("bufferId") String bufferId,
                                 @QueryParam("owner") @DefaultValue(RequestBodies.DEFAULT_OWNER)
                                         String owner,
                                 @QueryParam("discard") @DefaultValue("false") boolean discard) {
        RequestBodies.checkBoolean(uri, "discard");
        get(BufferService.class).removeBuffer(RequestBodies.deviceId(deviceId),
                                              RequestBodies.bufferId(bufferId), owner, discard);
        return Response.noContent().build();
    }

    /**
     * Shows a buffer's counters, read from its agent.
     *
     * @onos.rsModel BufferStatistics
     * @param deviceId device id
     * @param bufferId buffer id
     * @return 200 OK with the statistics; 404, 503 with a message
     */
    @GET
    @Path("{deviceId}/{bufferId}/statistics")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getStatistics(@PathParam("deviceId") String deviceId,
                                  @PathParam("bufferId") String bufferId) {
        DeviceId device = RequestBodies.deviceId(deviceId);
        BufferId id = RequestBodies.bufferId(bufferId);
        BufferStatistics stats = get(BufferService.class).getStatistics(device, id).orElseThrow(
                () -> FlowBufException.notFound("no buffer %s on %s", id, device));
        return ok(codec(BufferStatistics.class).encode(stats, this)).build();
    }

    /**
     * Shows a buffer's latest events, oldest first.
     *
     * @onos.rsModel BufferEventList
     * @param deviceId device id
     * @param bufferId buffer id
     * @return 200 OK with {"events": [...]}; 404 when there are none
     */
    @GET
    @Path("{deviceId}/{bufferId}/events")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getEvents(@PathParam("deviceId") String deviceId,
                              @PathParam("bufferId") String bufferId) {
        DeviceId device = RequestBodies.deviceId(deviceId);
        BufferId id = RequestBodies.bufferId(bufferId);
        List<BufferEvent> events = get(BufferService.class).getEvents(device, id);
        if (events.isEmpty()) {
            throw FlowBufException.notFound("no events of buffer %s on %s", id, device);
        }
        return ok(encodeArray(BufferEvent.class, "events", events)).build();
    }

    private Buffer existing(String deviceId, String bufferId) {
        DeviceId device = RequestBodies.deviceId(deviceId);
        BufferId id = RequestBodies.bufferId(bufferId);
        return get(BufferService.class).getBuffer(device, id).orElseThrow(
                () -> FlowBufException.notFound("no buffer %s on %s", id, device));
    }

    // The body's "state", which the call cannot go without.
    private static BufferState requiredState(ObjectNode json) {
        return JsonFields.optionalEnum(json, "state", BufferState.class)
                .orElseThrow(() -> FlowBufException.invalid("\"state\" is required"));
    }
}
