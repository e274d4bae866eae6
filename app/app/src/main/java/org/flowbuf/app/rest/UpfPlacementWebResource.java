/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.onlab.packet.Ip4Address;
import org.onosproject.rest.AbstractWebResource;

import javax.ws.rs.Consumes;
import javax.ws.rs.GET;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;

/**
 * The hybrid UPF's placement (include/hybrid.p4): which UEs run on the
 * fast path's small session table and which on the slow path, and the
 * settings that place them.
 */
@Path("upf/placement")
public class UpfPlacementWebResource extends AbstractWebResource {

    /**
     * Every UE promoted since the settings last named the paths: its path
     * (FAST or SLOW), whether a move is under way, its rate on the fast path
     * over the last window, its promotions and demotions.
     *
     * @onos.rsModel UePlacementList
     * @return 200 OK with {"placements": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPlacements() {
        return ok(encodeArray(UePlacement.class, "placements",
                              get(HybridPlacementService.class).placements())).build();
    }

    /**
     * One UE's placement (SLOW with no moves for a UE with a session on the
     * slow path that was never promoted).
     *
     * @onos.rsModel UePlacement
     * @param ue the UE's address
     * @return 200 OK with its placement; 400 (not an IPv4 address), 404 (no
     *         session on the slow path)
     */
    @GET
    @Path("ues/{ue}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getPlacement(@PathParam("ue") String ue) {
        Ip4Address address;
        try {
            address = Ip4Address.valueOf(ue);
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("bad UE address \"%s\" (expected e.g. 10.250.0.1)", ue);
        }
        UePlacement placement = get(HybridPlacementService.class).placement(address).orElseThrow(
                () -> FlowBufException.notFound("UE %s has no session on the slow path", ue));
        return ok(codec(UePlacement.class).encode(placement, this)).build();
    }

    /**
     * The settings the placement runs with.
     *
     * @onos.rsModel HybridSettingsView
     * @return 200 OK with the settings
     */
    @GET
    @Path("settings")
    @Produces(MediaType.APPLICATION_JSON)
    public Response getSettings() {
        return ok(codec(HybridSettings.class).encode(
                get(HybridPlacementService.class).settings(), this)).build();
    }

    /**
     * Names the paths and how UEs are placed on them. Body: {"fastDevice",
     * "slowDevice", "slowPort" (1..254, the fast path's port to the slow
     * path), "dnPort" (1..254, where the data network's downlink arrives),
     * "fastTableBudget" (1..32767, default 4096), "demoteIdleMs"
     * (100..86400000, default 5000), "windowMs" (50..60000, default 500, not
     * over demoteIdleMs)}; {} turns the placement off.
     *
     * @onos.rsModel HybridSettings
     * @param body request
     * @return 200 OK with the settings; 400 (a value out of range, an unknown
     *         field or device, the same device or port twice), 503 (the fast
     *         path did not take them)
     * @throws IOException when the body cannot be read
     */
    @PUT
    @Path("settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response putSettings(InputStream body) throws IOException {
        HybridSettings settings = codec(HybridSettings.class).decode(
                RequestBodies.object(mapper(), body), this);
        get(HybridPlacementService.class).configure(settings);
        return ok(codec(HybridSettings.class).encode(settings, this)).build();
    }
}
