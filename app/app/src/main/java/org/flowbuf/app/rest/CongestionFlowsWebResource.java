/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.JsonFields;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Latency-critical flows under congestion avoidance: each on a primary
 * path and a disjoint backup, with thresholds the switches check per
 * packet.
 */
@Path("congestion/flows")
public class CongestionFlowsWebResource extends AbstractWebResource {

    /**
     * Lists the latency-critical flows.
     *
     * @onos.rsModel CcFlowList
     * @return 200 OK with {"flows": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getFlows() {
        List<LatencyCriticalFlow> all = new ArrayList<>(get(CongestionService.class).flows());
        all.sort(Comparator.comparingLong(LatencyCriticalFlow::id));
        return ok(encodeArray(LatencyCriticalFlow.class, "flows", all)).build();
    }

    /**
     * Registers a latency-critical flow and installs its paths. Body:
     * {"srcHost", "dstHost", "filter", "budgetUs", "m", "x", "mode",
     * "orderedSwitchover", "probeIntervalMs"}; mode PROBING has the
     * controller probe the path every probeIntervalMs and move the flow
     * when a probe is late or lost.
     *
     * @onos.rsModel CcFlowRequest
     * @param body request
     * @return 201 Created with the flow; 400 (bad field, probeIntervalMs out
     *         of 100..60000 or without PROBING, no disjoint path, budget
     *         under the path's idle delay, orderedSwitchover without a
     *         buffer agent at the merge switch or outside DATAPLANE), 404
     *         (unknown host), 409 (same 5-tuple registered), 503
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response registerFlow(InputStream body) throws IOException {
        CcFlowRequest request = codec(CcFlowRequest.class).decode(
                RequestBodies.object(mapper(), body), this);
        LatencyCriticalFlow flow = get(CongestionService.class).register(request);
        return Response.created(UriBuilder.fromPath("congestion/flows")
                                        .path(Long.toString(flow.id())).build())
                .entity(codec(LatencyCriticalFlow.class).encode(flow, this)).build();
    }

    /**
     * A latency-critical flow: its current path, backup, thresholds,
     * switch-overs (with their cause) and last delays; a PROBING flow's
     * probes (sent, lost, late, last one-way time).
     *
     * @onos.rsModel CcFlow
     * @param id flow id
     * @return 200 OK with the flow; 400, 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getFlow(@PathParam("id") String id) {
        long key = flowId(id);
        LatencyCriticalFlow flow = get(CongestionService.class).flow(key).orElseThrow(
                () -> FlowBufException.notFound("no latency-critical flow %d", key));
        return ok(codec(LatencyCriticalFlow.class).encode(flow, this)).build();
    }

    /**
     * Removes a latency-critical flow from every switch.
     *
     * @param id flow id
     * @return 204 No Content; 400, 404, 503
     */
    @DELETE
    @Path("{id}")
    public Response removeFlow(@PathParam("id") String id) {
        get(CongestionService.class).remove(flowId(id));
        return Response.noContent().build();
    }

    private static long flowId(String id) {
        long key = JsonFields.parse("id", id, Long::parseLong);
        if (key < 1) {
            throw FlowBufException.invalid("\"id\": flow ids start at 1, not %d", key);
        }
        return key;
    }
}
