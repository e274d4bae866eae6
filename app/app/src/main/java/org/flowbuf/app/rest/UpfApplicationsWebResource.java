/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.net.DeviceId;
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
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Applications of the UPF: flows (by the UE's 5-tuple) with their own QFI
 * and meter.
 */
@Path("upf/applications")
public class UpfApplicationsWebResource extends AbstractWebResource {

    /**
     * Lists applications.
     *
     * @onos.rsModel UpfApplicationList
     * @param deviceId only this device's (optional)
     * @return 200 OK with {"applications": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getApplications(@QueryParam("deviceId") String deviceId) {
        Optional<DeviceId> device = UpfSessionsWebResource.device(deviceId);
        List<UpfApplication> all = get(UpfService.class).applications().stream()
                .filter(a -> device.isEmpty() || a.deviceId().equals(device.get()))
                .sorted(Comparator.comparing((UpfApplication a) -> a.deviceId().toString())
                                .thenComparingInt(UpfApplication::appId))
                .collect(Collectors.toList());
        return ok(encodeArray(UpfApplication.class, "applications", all)).build();
    }

    /**
     * Adds an application. Body: {"deviceId", "appId" (1-255), "priority"
     * (optional, 1), "filter": {"ueAddress", "appAddress", "ipProto",
     * "uePorts": {"low", "high"}, "appPorts": {...}}, "qfi", "meter"
     * (optional)}.
     *
     * @onos.rsModel UpfApplication
     * @param body request
     * @return 201 Created with the application; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addApplication(InputStream body) throws IOException {
        UpfApplication app = codec(UpfApplication.class)
                .decode(RequestBodies.object(mapper(), body), this);
        UpfApplication added = get(UpfService.class).addApplication(app);
        return Response.created(UriBuilder.fromPath("upf/applications")
                                        .path(added.deviceId().toString())
                                        .path(Integer.toString(added.appId())).build())
                .entity(codec(UpfApplication.class).encode(added, this)).build();
    }

    /**
     * Removes an application.
     *
     * @param deviceId device id
     * @param appId    application id
     * @return 204 No Content; 400, 404
     */
    @DELETE
    @Path("{deviceId}/{appId}")
    public Response removeApplication(@PathParam("deviceId") String deviceId,
                                      @PathParam("appId") String appId) {
        long id = RequestBodies.id("application", appId);
        if (id > UpfApplication.MAX_APP_ID) {
            throw FlowBufException.notFound("no application %d on %s", id, deviceId);
        }
        get(UpfService.class).removeApplication(RequestBodies.deviceId(deviceId), (int) id);
        return Response.noContent().build();
    }
}
