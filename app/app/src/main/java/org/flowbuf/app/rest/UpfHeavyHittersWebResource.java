/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.GET;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;

/**
 * Heavy-hitter detection on the UPF switches (include/hh.p4): its settings
 * and the UEs the switches reported as heavy.
 */
@Path("upf/heavy-hitters")
public class UpfHeavyHittersWebResource extends AbstractWebResource {

    /**
     * The latest reports, oldest first: each UE a switch found heavy, with
     * the 5-tuple of the packet that made it so and its EWMA gap.
     *
     * @onos.rsModel HeavyHitterList
     * @return 200 OK with {"heavyHitters": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getReports() {
        return ok(encodeArray(HeavyHitter.class, "heavyHitters",
                              get(HeavyHitterService.class).recent())).build();
    }

    /**
     * The settings the switches run with, and what they take from them
     * (thresholdEighthsUs, idleUs, meanGapUs).
     *
     * @onos.rsModel HeavyHitterSettingsView
     * @return 200 OK with the settings
     */
    @GET
    @Path("settings")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSettings() {
        return ok(codec(HeavyHitterSettings.class).encode(
                get(HeavyHitterService.class).settings(), this)).build();
    }

    /**
     * Sets the detection on every switch. Body: {"enabled", "rateBps"
     * (1000..10^11), "packetBytes" (64..9216), "idleMs" (1..3600000)};
     * a field left out takes its default (off, 2000000, 1500, 1000).
     *
     * @onos.rsModel HeavyHitterSettings
     * @param body request
     * @return 200 OK with the settings; 400 (a value out of range, unknown
     *         field, a rate whose packet gap is under 1/8 µs or not under
     *         the idle time), 503 (a switch did not take them)
     * @throws IOException when the body cannot be read
     */
    @PUT
    @Path("settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response putSettings(InputStream body) throws IOException {
        HeavyHitterSettings settings = codec(HeavyHitterSettings.class).decode(
                RequestBodies.object(mapper(), body), this);
        get(HeavyHitterService.class).configure(settings);
        return ok(codec(HeavyHitterSettings.class).encode(settings, this)).build();
    }
}
