/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.Vport;
import org.onosproject.net.DeviceId;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.util.Comparator;

/**
 * Devices that have a buffer agent, and their vports.
 */
@Path("devices")
public class DevicesWebResource extends AbstractWebResource {

    /**
     * Lists the devices with a buffer agent, each with its vports.
     *
     * @onos.rsModel DeviceList
     * @return 200 OK with {"devices": [{"id", "vports": [...]}]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getDevices() {
        BufferService service = get(BufferService.class);
        ObjectNode root = mapper().createObjectNode();
        ArrayNode devices = root.putArray("devices");
        service.getDevices().stream().sorted(Comparator.comparing(DeviceId::toString))
                .forEach(d -> devices.add(device(service, d)));
        return ok(root).build();
    }

    /**
     * Lists the vports of a device.
     *
     * @onos.rsModel VportList
     * @param deviceId device id
     * @return 200 OK with {"vports": [...]}; 404 for a device without agent
     */
    @GET
    @Path("{deviceId}/vports")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getVports(@PathParam("deviceId") String deviceId) {
        BufferService service = get(BufferService.class);
        DeviceId device = known(service, deviceId);
        return ok(encodeArray(Vport.class, "vports", service.getVports(device))).build();
    }

    /**
     * Reconciles the device's buffers with its agent: adopts buffers the
     * agent holds that the service does not know (after a controller
     * restart), re-creates buffers the agent lost (after its restart) and
     * reports once the buffers an agent re-attached from its state dir after
     * a crash (BUFFER_REATTACHED with reattachedPackets and lostPackets).
     *
     * @param deviceId device id
     * @return 200 OK with {"events": [...]} (BUFFER_ADOPTED, BUFFER_RECREATED,
     *         BUFFER_REATTACHED);
     *         404 for a device without agent, 503 when the agent is unreachable
     */
    @POST
    @Path("{deviceId}/reconcile")
    @Produces(MediaType.APPLICATION_JSON)
    public Response reconcile(@PathParam("deviceId") String deviceId) {
        BufferService service = get(BufferService.class);
        DeviceId device = known(service, deviceId);
        return ok(encodeArray(BufferEvent.class, "events", service.reconcile(device))).build();
    }

    private ObjectNode device(BufferService service, DeviceId deviceId) {
        ObjectNode json = mapper().createObjectNode().put("id", deviceId.toString());
        json.set("vports", encodeArray(Vport.class, "vports", service.getVports(deviceId))
                .get("vports"));
        return json;
    }

    static DeviceId known(BufferService service, String deviceId) {
        DeviceId device = RequestBodies.deviceId(deviceId);
        if (!service.getDevices().contains(device)) {
            throw FlowBufException.notFound("device %s has no buffer agent configured", device);
        }
        return device;
    }
}
