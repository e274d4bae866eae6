/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.net.DeviceId;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.DELETE;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.QueryParam;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * UPF interfaces: a device's N3 addresses (ACCESS) and UE pools (CORE).
 */
@Path("upf/interfaces")
public class UpfInterfacesWebResource extends AbstractWebResource {

    /**
     * Lists interfaces.
     *
     * @onos.rsModel UpfInterfaceList
     * @param deviceId only this device's (optional)
     * @return 200 OK with {"interfaces": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getInterfaces(@QueryParam("deviceId") String deviceId) {
        Optional<DeviceId> device = UpfSessionsWebResource.device(deviceId);
        List<UpfInterface> all = get(UpfService.class).interfaces().stream()
                .filter(i -> device.isEmpty() || i.deviceId().equals(device.get()))
                .sorted(Comparator.comparing(UpfInterface::toString)).collect(Collectors.toList());
        return ok(encodeArray(UpfInterface.class, "interfaces", all)).build();
    }

    /**
     * Adds an interface. Body: {"deviceId", "kind": "ACCESS" (an N3
     * address, prefix /32) or "CORE" (a UE pool), "prefix"}.
     *
     * @onos.rsModel UpfInterface
     * @param body request
     * @return 201 Created with the interface; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addInterface(InputStream body) throws IOException {
        UpfInterface iface = codec(UpfInterface.class)
                .decode(RequestBodies.object(mapper(), body), this);
        UpfInterface added = get(UpfService.class).addInterface(iface);
        return Response.status(Response.Status.CREATED)
                .entity(codec(UpfInterface.class).encode(added, this)).build();
    }

    /**
     * Removes an interface that no session uses.
     *
     * @param deviceId device id
     * @param kind     ACCESS or CORE
     * @param prefix   its prefix
     * @return 204 No Content; 400, 404, 409
     */
    @DELETE
    public Response removeInterface(@QueryParam("deviceId") String deviceId,
                                    @QueryParam("kind") String kind,
                                    @QueryParam("prefix") String prefix) {
        ObjectNode json = mapper().createObjectNode();
        if (deviceId != null) {
            json.put("deviceId", deviceId);
        }
        if (kind != null) {
            json.put("kind", kind);
        }
        if (prefix != null) {
            json.put("prefix", prefix);
        }
        get(UpfService.class).removeInterface(codec(UpfInterface.class).decode(json, this));
        return Response.noContent().build();
    }
}
