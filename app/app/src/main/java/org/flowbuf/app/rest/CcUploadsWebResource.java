/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.ConnectionlessService;
import org.flowbuf.api.codec.JsonFields;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Connectionless uploads: sensors upload into buffers, collectors download.
 */
@Path("apps/cc/uploads")
public class CcUploadsWebResource extends AbstractWebResource {

    /**
     * Lists uploads.
     *
     * @onos.rsModel CcUploadList
     * @return 200 OK with {"uploads": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getUploads() {
        List<CcUpload> all = new ArrayList<>(get(ConnectionlessService.class).uploads());
        all.sort(Comparator.comparingLong(CcUpload::id));
        return ok(encodeArray(CcUpload.class, "uploads", all)).build();
    }

    /**
     * A sensor's upload request. Body: {"deviceId", "sensorPort", "filter"}.
     *
     * @onos.rsModel CcUploadRequest
     * @param body request
     * @return 201 Created with the upload; 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response requestUpload(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        FlowFilter flow = codec(FlowFilter.class).decode(
                JsonFields.optionalObject(json, "filter").orElseThrow(
                        () -> FlowBufException.invalid("\"filter\" is required")), this);
        CcUpload u = get(ConnectionlessService.class).requestUpload(
                RequestBodies.deviceId(JsonFields.text(json, "deviceId")),
                PortNumber.portNumber(JsonFields.number(json, "sensorPort")), flow);
        return Response.created(UriBuilder.fromPath("apps/cc/uploads")
                                        .path(Long.toString(u.id())).build())
                .entity(codec(CcUpload.class).encode(u, this)).build();
    }

    /**
     * The upload is complete: its buffer goes Storing.
     *
     * @param id upload id
     * @return 200 OK with the upload; 400, 404, 409
     */
    @POST
    @Path("{id}/stored")
    @Produces(MediaType.APPLICATION_JSON)
    public Response stored(@PathParam("id") String id) {
        return ok(codec(CcUpload.class).encode(
                get(ConnectionlessService.class).stored(RequestBodies.id("upload", id)), this)).build();
    }

    /**
     * The collector downloads. Body: {"port": collector's port}.
     *
     * @onos.rsModel PortRequest
     * @param id   upload id
     * @param body request
     * @return 200 OK with the upload; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{id}/download")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response download(@PathParam("id") String id, InputStream body) throws IOException {
        PortNumber port = PortNumber.portNumber(
                JsonFields.number(RequestBodies.object(mapper(), body), "port"));
        return ok(codec(CcUpload.class).encode(
                get(ConnectionlessService.class).download(RequestBodies.id("upload", id), port), this)).build();
    }

    /**
     * Removes a served upload's rules and buffer.
     *
     * @param id upload id
     * @return 200 OK with the upload; 400, 404, 409
     */
    @POST
    @Path("{id}/release")
    @Produces(MediaType.APPLICATION_JSON)
    public Response release(@PathParam("id") String id) {
        return ok(codec(CcUpload.class).encode(
                get(ConnectionlessService.class).release(RequestBodies.id("upload", id)), this)).build();
    }

}
