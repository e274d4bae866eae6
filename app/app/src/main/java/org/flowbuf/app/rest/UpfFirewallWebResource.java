/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.flowbuf.api.upf.FirewallRule;
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
import javax.ws.rs.core.UriBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The UPF's firewall: direction-aware allow/deny rules on the UE's 5-tuple.
 */
@Path("upf/firewall")
public class UpfFirewallWebResource extends AbstractWebResource {

    /**
     * Lists firewall rules.
     *
     * @onos.rsModel UpfFirewallRuleList
     * @param deviceId only this device's (optional)
     * @return 200 OK with {"rules": [...]}
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response getRules(@QueryParam("deviceId") String deviceId) {
        Optional<DeviceId> device = UpfSessionsWebResource.device(deviceId);
        List<FirewallRule> all = get(UpfService.class).firewallRules().stream()
                .filter(r -> device.isEmpty() || r.deviceId().equals(device.get()))
                .sorted(Comparator.comparingLong(FirewallRule::id)).collect(Collectors.toList());
        return ok(encodeArray(FirewallRule.class, "rules", all)).build();
    }

    /**
     * Adds a firewall rule. Body: {"deviceId", "direction" (UPLINK,
     * DOWNLINK or BOTH, default BOTH), "filter" (as applications'),
     * "action" (ALLOW or DENY), "priority" (optional, 1)}.
     *
     * @onos.rsModel UpfFirewallRule
     * @param body request
     * @return 201 Created with the rule and its id; 400, 404, 409
     * @throws IOException when the body cannot be read
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response addRule(InputStream body) throws IOException {
        FirewallRule rule = codec(FirewallRule.class)
                .decode(RequestBodies.object(mapper(), body), this);
        FirewallRule added = get(UpfService.class).addFirewallRule(rule);
        return Response.created(UriBuilder.fromPath("upf/firewall")
                                        .path(Long.toString(added.id())).build())
                .entity(codec(FirewallRule.class).encode(added, this)).build();
    }

    /**
     * Removes a firewall rule.
     *
     * @param id rule id
     * @return 204 No Content; 400, 404
     */
    @DELETE
    @Path("{id}")
    public Response removeRule(@PathParam("id") String id) {
        get(UpfService.class).removeFirewallRule(RequestBodies.id("firewall rule", id));
        return Response.noContent().build();
    }
}
