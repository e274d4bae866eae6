/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;
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
 * NFV flow migrations: hold a flow while its NF moves, release it into the
 * new instance.
 */
@Path("apps/nfv/migrations")
public class NfvMigrationsWebResource extends AbstractWebResource {

    /**
     * Lists migrations.
     *
     * @onos.rsModel NfvMigrationList
     * @return 200 OK with {"migrations": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getMigrations() {
        List<NfvMigration> all = new ArrayList<>(get(NfvMigrationService.class).migrations());
        all.sort(Comparator.comparingLong(NfvMigration::id));
        return ok(encodeArray(NfvMigration.class, "migrations", all)).build();
    }

    /**
     * Begins a migration: the flow is held. Body: {"deviceId", "inPort", "filter"}.
     *
     * @onos.rsModel FlowRequest
     * @param body request
     * @return 201 Created with the migration; 400, 404, 409, 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response begin(InputStream body) throws IOException {
        ObjectNode json = RequestBodies.object(mapper(), body);
        FlowFilter flow = codec(FlowFilter.class).decode(
                JsonFields.optionalObject(json, "filter").orElseThrow(
                        () -> FlowBufException.invalid("\"filter\" is required")), this);
        NfvMigration m = get(NfvMigrationService.class).begin(
                RequestBodies.deviceId(JsonFields.text(json, "deviceId")),
                PortNumber.portNumber(JsonFields.number(json, "inPort")), flow);
        return Response.created(UriBuilder.fromPath("apps/nfv/migrations")
                                        .path(Long.toString(m.id())).build())
                .entity(codec(NfvMigration.class).encode(m, this)).build();
    }

    /**
     * The NF state has moved: releases the flow into the new instance.
     * Body: {"port": new instance's port}.
     *
     * @onos.rsModel PortRequest
     * @param id   migration id
     * @param body request
     * @return 200 OK with the migration; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{id}/complete")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response complete(@PathParam("id") String id, InputStream body) throws IOException {
        PortNumber port = port(body);
        return ok(codec(NfvMigration.class).encode(
                get(NfvMigrationService.class).complete(RequestBodies.id("migration", id), port), this)).build();
    }

    /**
     * Gives up: releases the flow back to the old instance. Body: {"port"}.
     *
     * @onos.rsModel PortRequest
     * @param id   migration id
     * @param body request
     * @return 200 OK with the migration; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Path("{id}/abort")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response abort(@PathParam("id") String id, InputStream body) throws IOException {
        PortNumber port = port(body);
        return ok(codec(NfvMigration.class).encode(
                get(NfvMigrationService.class).abort(RequestBodies.id("migration", id), port), this)).build();
    }

    private PortNumber port(InputStream body) throws IOException {
        return PortNumber.portNumber(JsonFields.number(RequestBodies.object(mapper(), body),
                                                       "port"));
    }

}
