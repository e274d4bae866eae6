/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfQosReroute;
import org.flowbuf.api.upf.UpfQosService;
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
 * UPF-QoS (hybrid P4 UPF, section 6.3.1): per device, the delay-critical
 * flows' QFI and queue, and the high-bandwidth port their heavy hitters
 * are rerouted to.
 */
@Path("upf/qos")
public class UpfQosWebResource extends AbstractWebResource {

    /**
     * Lists the UPF-QoS policies.
     *
     * @onos.rsModel UpfQosPolicyList
     * @return 200 OK with {"policies": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPolicies() {
        return ok(encodeArray(UpfQosPolicy.class, "policies",
                              get(UpfQosService.class).policies())).build();
    }

    /**
     * Installs a device's UPF-QoS policy. Body: {"deviceId", "appId"
     * (1-255: the UPF application of the DC class), "priority" (optional,
     * 1), "filter" (the DC flows, as a UPF application's), "qfi" (0-63),
     * "queue" (optional, 7), "highBandwidthPort" (optional, 1-511: where DC
     * heavy hitters go; none: not rerouted), "idleMs" (optional, 1000: a
     * reroute is undone after this long without a packet)}.
     *
     * @onos.rsModel UpfQosPolicy
     * @param body request
     * @return 201 Created with the policy; 400 (a bad or unknown field), 404
     *         (unknown device), 409 (the device has a policy, the application
     *         id or a filter and priority is taken, the QFI has a queue)
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addPolicy(InputStream body) throws IOException {
        UpfQosPolicy policy = codec(UpfQosPolicy.class)
                .decode(RequestBodies.object(mapper(), body), this);
        UpfQosPolicy added = get(UpfQosService.class).setPolicy(policy);
        return Response.created(UriBuilder.fromPath("upf/qos")
                                        .path(added.deviceId().toString()).build())
                .entity(codec(UpfQosPolicy.class).encode(added, this)).build();
    }

    /**
     * The reroutes in force: each DC heavy hitter sent to its device's
     * high-bandwidth port, with the report that made it and the bytes it
     * took.
     *
     * @onos.rsModel UpfQosRerouteList
     * @return 200 OK with {"reroutes": [...]}
     */
    @GET
    @Path("reroutes")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getReroutes() {
        return ok(encodeArray(UpfQosReroute.class, "reroutes",
                              get(UpfQosService.class).reroutes())).build();
    }

    /**
     * A device's UPF-QoS policy.
     *
     * @onos.rsModel UpfQosPolicy
     * @param deviceId device id
     * @return 200 OK with the policy; 400, 404 (none)
     */
    @GET
    @Path("{deviceId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPolicy(@PathParam("deviceId") String deviceId) {
        UpfQosPolicy policy = get(UpfQosService.class).policy(RequestBodies.deviceId(deviceId))
                .orElseThrow(() -> FlowBufException.notFound("%s has no UPF-QoS policy",
                                                             deviceId));
        return ok(codec(UpfQosPolicy.class).encode(policy, this)).build();
    }

    /**
     * Removes a device's UPF-QoS policy: its reroutes, its queue and its
     * application.
     *
     * @param deviceId device id
     * @return 204 No Content; 400, 404 (none)
     */
    @DELETE
    @Path("{deviceId}")
    public Response removePolicy(@PathParam("deviceId") String deviceId) {
        get(UpfQosService.class).removePolicy(RequestBodies.deviceId(deviceId));
        return Response.noContent().build();
    }
}
