/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfQueue;
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
import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * QoS of the UPF: which egress queue each QFI's packets take.
 */
@Path("upf/queues")
public class UpfQueuesWebResource extends AbstractWebResource {

    /**
     * Lists QFI → queue mappings.
     *
     * @onos.rsModel UpfQueueList
     * @param deviceId only this device's (optional)
     * @return 200 OK with {"queues": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getQueues(@QueryParam("deviceId") String deviceId) {
        Optional<DeviceId> device = UpfSessionsWebResource.device(deviceId);
        List<UpfQueue> all = get(UpfService.class).queues().stream()
                .filter(q -> device.isEmpty() || q.deviceId().equals(device.get()))
                .sorted(Comparator.comparing((UpfQueue q) -> q.deviceId().toString())
                                .thenComparingInt(UpfQueue::qfi))
                .collect(Collectors.toList());
        return ok(encodeArray(UpfQueue.class, "queues", all)).build();
    }

    /**
     * Maps a QFI to an egress queue (0-7, 7 served first), replacing its
     * earlier queue. Body: {"deviceId", "qfi", "queue"}.
     *
     * @onos.rsModel UpfQueue
     * @param body request
     * @return 200 OK with the mapping; 400, 404
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response setQueue(InputStream body) throws IOException {
        UpfQueue queue = codec(UpfQueue.class).decode(RequestBodies.object(mapper(), body), this);
        return ok(codec(UpfQueue.class).encode(get(UpfService.class).setQueue(queue), this)).build();
    }

    /**
     * Removes a QFI's mapping: its packets take the default queue.
     *
     * @param deviceId device id
     * @param qfi      QFI
     * @return 204 No Content; 400, 404
     */
    @DELETE
    @Path("{deviceId}/{qfi}")
    public Response removeQueue(@PathParam("deviceId") String deviceId,
                                @PathParam("qfi") String qfi) {
        long value = RequestBodies.id("QFI", qfi);
        if (value > PduSession.MAX_QFI) {
            throw FlowBufException.notFound("QFI %d has no queue on %s", value, deviceId);
        }
        get(UpfService.class).removeQueue(RequestBodies.deviceId(deviceId), (int) value);
        return Response.noContent().build();
    }
}
