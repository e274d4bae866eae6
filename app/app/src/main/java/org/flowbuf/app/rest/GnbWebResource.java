/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;
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
 * The hybrid gNodeB devices: their UPF port, cells (radio port, BaaS
 * buffer port) and bearers; bearers added and removed at run time.
 */
@Path("gnb/devices")
public class GnbWebResource extends AbstractWebResource {

    /**
     * Lists the gNodeB devices (those with a "gnb" netcfg section).
     *
     * @onos.rsModel GnbDeviceList
     * @return 200 OK with {"devices": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getDevices() {
        return ok(encodeArray(GnbDevice.class, "devices", get(GnbService.class).devices()))
                .build();
    }

    /**
     * Shows a gNodeB device: its UPF port, cells and bearers, each bearer
     * with its PDCP SN cell (snIndex).
     *
     * @onos.rsModel GnbDevice
     * @param deviceId device id
     * @return 200 OK with the device; 400, 404 (no gNodeB)
     */
    @GET
    @Path("{deviceId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getDevice(@PathParam("deviceId") String deviceId) {
        return ok(codec(GnbDevice.class).encode(find(RequestBodies.deviceId(deviceId)), this))
                .build();
    }

    /**
     * Adds a bearer at the end of the device's list, written to the device
     * before the answer. Body: {"teid", "cell", "ueMac", "uplinkTeid",
     * "gnbAddress", "upfAddress"}.
     *
     * @onos.rsModel GnbBearer
     * @param deviceId device id
     * @param body     request
     * @return 201 Created with the device; 400 (bad field, unknown cell), 404 (no gNodeB),
     *         409 (TEID taken, device full), 503 (the device refused)
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{deviceId}/bearers")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addBearer(@PathParam("deviceId") String deviceId, InputStream body)
            throws IOException {
        DeviceId device = RequestBodies.deviceId(deviceId);
        GnbBearer bearer = codec(GnbBearer.class).decode(RequestBodies.object(mapper(), body),
                                                         this);
        GnbDevice gnb = get(GnbService.class).addBearer(device, bearer);
        return Response.created(UriBuilder.fromPath("gnb/devices").path(deviceId)
                                        .path("bearers").path(Long.toString(bearer.teid()))
                                        .build())
                .entity(codec(GnbDevice.class).encode(gnb, this)).build();
    }

    /**
     * Removes a bearer; the bearers after it move up one PDCP SN cell.
     *
     * @param deviceId device id
     * @param teid     the bearer's downlink TEID
     * @return 204 No Content; 400, 404 (no gNodeB, no such bearer), 503
     */
    @DELETE
    @Path("{deviceId}/bearers/{teid}")
    public Response removeBearer(@PathParam("deviceId") String deviceId,
                                 @PathParam("teid") String teid) {
        DeviceId device = RequestBodies.deviceId(deviceId);
        long id = RequestBodies.id("TEID", teid);
        if (id < 1 || id > GnbBearer.MAX_TEID) {
            throw FlowBufException.invalid("a TEID is between 1 and %d, got %d",
                                           GnbBearer.MAX_TEID, id);
        }
        get(GnbService.class).removeBearer(device, id);
        return Response.noContent().build();
    }

    private GnbDevice find(DeviceId device) {
        return get(GnbService.class).device(device).orElseThrow(
                () -> FlowBufException.notFound("%s is no gNodeB (it has no \"gnb\" netcfg section)",
                                                device));
    }
}
