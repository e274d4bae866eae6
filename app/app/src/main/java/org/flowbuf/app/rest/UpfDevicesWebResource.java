/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;

/**
 * The UPF per device, in counts: what a dashboard (the GUI's device badges)
 * polls without fetching every session.
 */
@Path("upf/devices")
public class UpfDevicesWebResource extends AbstractWebResource {

    /**
     * Lists each device with sessions: how many, and how many downlinks are paused.
     *
     * @onos.rsModel UpfDeviceList
     * @return 200 OK with {"devices": [{"deviceId", "sessions", "pausedDownlinks"}]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getDevices() {
        return ok(encodeArray(UpfDeviceSummary.class, "devices",
                              get(UpfService.class).deviceSummaries())).build();
    }
}
