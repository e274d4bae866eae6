/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.codec.JsonFields;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfService;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
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
import java.util.stream.Collectors;

/**
 * PDU sessions of the UPF: a UE's GTP-U tunnel both ways.
 */
@Path("upf/sessions")
public class UpfSessionsWebResource extends AbstractWebResource {

    /** Most sessions one batch may carry. */
    static final int MAX_BATCH = 10_000;

    /**
     * Lists sessions.
     *
     * @onos.rsModel UpfSessionList
     * @param deviceId only this device's (optional)
     * @return 200 OK with {"sessions": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSessions(@QueryParam("deviceId") String deviceId) {
        Optional<DeviceId> device = device(deviceId);
        List<PduSession> all = get(UpfService.class).sessions().stream()
                .filter(s -> device.isEmpty() || s.deviceId().equals(device.get()))
                .sorted(Comparator.comparingLong(PduSession::id)).collect(Collectors.toList());
        return ok(encodeArray(PduSession.class, "sessions", all)).build();
    }

    /**
     * Installs a session. Body: {"deviceId", "ueAddress", "n3Address",
     * "uplinkTeid", "gnbAddress", "downlinkTeid", "gnbPort" (optional, 2152),
     * "qfi" (optional, 0), "ambr" (optional: {"cir", "cburst", "pir", "pburst"},
     * bytes/s and bytes)}.
     *
     * @onos.rsModel UpfSessionRequest
     * @param body request
     * @return 201 Created with the session; 400, 404 (device), 409 (UE or TEID taken, full)
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addSession(InputStream body) throws IOException {
        PduSession s = codec(PduSession.class).decode(RequestBodies.object(mapper(), body), this);
        PduSession added = get(UpfService.class).addSessions(List.of(s)).get(0);
        return Response.created(UriBuilder.fromPath("upf/sessions")
                                        .path(Long.toString(added.id())).build())
                .entity(codec(PduSession.class).encode(added, this)).build();
    }

    /**
     * Installs several sessions, all or none, in one write per device.
     * Body: {"sessions": [session, ...]}.
     *
     * @onos.rsModel UpfSessionBatchRequest
     * @param body request
     * @return 200 OK with {"sessions": [...]}, in request order; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addSessions(InputStream body) throws IOException {
        List<ObjectNode> items = RequestBodies.objects(RequestBodies.object(mapper(), body),
                                                       "sessions");
        if (items.size() > MAX_BATCH) {
            throw FlowBufException.invalid("a batch has at most %d sessions, got %d", MAX_BATCH,
                                           items.size());
        }
        List<PduSession> sessions = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            try {
                sessions.add(codec(PduSession.class).decode(items.get(i), this));
            } catch (FlowBufException e) {
                throw new FlowBufException(e.reason(), "sessions[" + i + "]: " + e.getMessage());
            }
        }
        List<PduSession> added = get(UpfService.class).addSessions(sessions);
        return ok(encodeArray(PduSession.class, "sessions", added)).build();
    }

    /**
     * Shows a session.
     *
     * @onos.rsModel UpfSession
     * @param key      session id, or the UE's address
     * @param deviceId the device, for a UE address (optional)
     * @return 200 OK with the session; 400, 404
     */
    @GET
    @Path("{key}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSession(@PathParam("key") String key,
                               @QueryParam("deviceId") String deviceId) {
        return ok(codec(PduSession.class).encode(find(key, deviceId), this)).build();
    }

    /**
     * Removes a session.
     *
     * @param key      session id, or the UE's address
     * @param deviceId the device, for a UE address (optional)
     * @return 204 No Content; 400, 404
     */
    @DELETE
    @Path("{key}")
    public Response removeSession(@PathParam("key") String key,
                                  @QueryParam("deviceId") String deviceId) {
        get(UpfService.class).removeSession(find(key, deviceId).id());
        return Response.noContent().build();
    }

    /**
     * Holds the UE's downlink in a FlowBuf buffer (a pause intent on the
     * port the data network's packets arrive on). Body: {"inPort"}.
     *
     * @onos.rsModel UpfPauseRequest
     * @param key      session id, or the UE's address
     * @param deviceId the device, for a UE address (optional)
     * @param body     request
     * @return 200 OK with the pause intent; 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{key}/pause")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response pauseDownlink(@PathParam("key") String key,
                                  @QueryParam("deviceId") String deviceId,
                                  InputStream body) throws IOException {
        PduSession s = find(key, deviceId);
        long inPort = JsonFields.number(RequestBodies.object(mapper(), body), "inPort");
        FlowBufIntent intent = get(UpfService.class).pauseDownlink(s.id(),
                                                                   PortNumber.portNumber(inPort));
        return ok(codec(FlowBufIntent.class).encode(intent, this)).build();
    }

    /**
     * Releases the UE's held downlink: the buffer replays it in order into
     * the UPF and keeps forwarding.
     *
     * @param key      session id, or the UE's address
     * @param deviceId the device, for a UE address (optional)
     * @return 200 OK with the buffer; 400, 404, 409, 503
     */
    @POST
    @Path("{key}/resume")
    @Produces(MediaType.APPLICATION_JSON)
    public Response resumeDownlink(@PathParam("key") String key,
                                   @QueryParam("deviceId") String deviceId) {
        Buffer buffer = get(UpfService.class).resumeDownlink(find(key, deviceId).id());
        return ok(codec(Buffer.class).encode(buffer, this)).build();
    }

    private PduSession find(String key, String deviceId) {
        UpfService upf = get(UpfService.class);
        if (key.contains(".")) {
            Ip4Address ue = ueAddress(key);
            return upf.session(device(deviceId), ue).orElseThrow(
                    () -> FlowBufException.notFound("no session of UE %s", ue));
        }
        long id = RequestBodies.id("session", key);
        return upf.session(id).orElseThrow(() -> FlowBufException.notFound("no session %d", id));
    }

    private static Ip4Address ueAddress(String text) {
        try {
            return Ip4Address.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("bad UE address \"%s\" (expected e.g. 10.250.0.1)",
                                           text);
        }
    }

    static Optional<DeviceId> device(String deviceId) {
        return deviceId == null ? Optional.empty() : Optional.of(RequestBodies.deviceId(deviceId));
    }
}
