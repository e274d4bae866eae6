/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.flowbuf.host.netcfg.HostEntry;
import org.flowbuf.host.netcfg.Netcfg;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * L2 base rules across several switches: a host's own port where it is
 * attached (any of its locations), else the first hop along the netcfg's
 * links; and the netcfg errors for bad links.
 */
public class BaseRulesTest {

    // sa -2-> s1, sa -3-> s2, s1 -3- s2 (X2); ue on s1/2 and s2/2; server on sa/1.
    private static final String NETCFG = "{\"links\": {"
            + "\"device:sa/2-device:s1/1\": {}, \"device:sa/3-device:s2/1\": {},"
            + "\"device:s1/3-device:s2/3\": {}},"
            + "\"hosts\": {"
            + "\"00:00:00:00:00:01/None\": {\"basic\": {\"locations\": [\"device:sa/1\"]}},"
            + "\"00:00:00:00:00:0a/None\": {\"basic\": {\"locations\": "
            + "[\"device:s1/2\", \"device:s2/2\"]}}}}";

    private static Netcfg netcfg(String json) throws Exception {
        return Netcfg.parse(new ObjectMapper().readTree(json));
    }

    private static Optional<Long> port(Netcfg cfg, String device, int host) {
        HostEntry entry = cfg.hosts().get(host);
        return BaseRules.portTowards(DeviceId.deviceId(device), entry, cfg.links());
    }

    @Test
    public void hostsAreReachedByTheirOwnPortOrTheFirstHopOfAShortestPath() throws Exception {
        Netcfg cfg = netcfg(NETCFG);
        assertEquals(Optional.of(1L), port(cfg, "device:sa", 0));
        assertEquals(Optional.of(1L), port(cfg, "device:s1", 0));
        assertEquals(Optional.of(1L), port(cfg, "device:s2", 0));
        assertEquals("the UE's first location decides the anchor's path",
                     Optional.of(2L), port(cfg, "device:sa", 1));
        assertEquals(Optional.of(2L), port(cfg, "device:s1", 1));
        assertEquals("a multi-homed host is reached at every location",
                     Optional.of(2L), port(cfg, "device:s2", 1));
        assertEquals(Optional.empty(), port(cfg, "device:elsewhere", 0));
    }

    @Test
    public void aBadLinkKeyIsNamed() throws Exception {
        try {
            netcfg("{\"links\": {\"device:sa/2~device:s1/1\": {}}}");
            fail("a bad link key was accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("links.device:sa/2~device:s1/1"));
        }
    }
}
