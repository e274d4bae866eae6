/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.gnb.GnbFlowRules;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.flowbuf.pipeconf.GnbP4Names.DOWNLINK_BEARERS;
import static org.flowbuf.pipeconf.GnbP4Names.PORTS;
import static org.flowbuf.pipeconf.GnbP4Names.UPLINK_BEARERS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The "gnb" device section: what it reads, what it refuses, the rules it makes.
 */
public class GnbDeviceConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DeviceId DEVICE = DeviceId.deviceId("device:gnb1");
    private static final String CELL1 = "{\"id\": 1, \"radioPort\": 2, \"baasPort\": 100}";
    private static final String CELL2 = "{\"id\": 2, \"radioPort\": 3, \"baasPort\": 101}";
    private static final String BEARER = "{\"teid\": 13631489, \"cell\": 2, \"ueMac\": \"02:00:00:00:0e:01\", "
            + "\"uplinkTeid\": 4660, \"gnbAddress\": \"10.0.0.200\", \"upfAddress\": \"10.0.0.100\"}";
    private static final String GOOD = "{\"upfPort\": 1, \"cells\": [" + CELL1 + ", " + CELL2 + "], "
            + "\"bearers\": [" + BEARER + ", " + BEARER.replace("13631489", "13631490") + "]}";

    private static GnbDeviceConfig load(String json) throws IOException {
        GnbDeviceConfig config = new GnbDeviceConfig();
        config.init(DEVICE, GnbDeviceConfig.CONFIG_KEY, (ObjectNode) MAPPER.readTree(json), MAPPER, c -> { });
        return config;
    }

    @Test
    public void aSectionGivesPortsCellsAndBearersWithTheirSnCells() throws IOException {
        GnbDeviceConfig c = load(GOOD);
        assertTrue(c.validationError().toString(), c.isValid());
        assertEquals(1, c.upfPort());
        assertEquals(2, c.cells().size());
        assertEquals(101, c.cells().get(1).baasPort());
        GnbDeviceConfig.Bearer second = c.bearers().get(1);
        assertEquals(13631490L, second.value().teid());
        assertEquals(2, second.cell().id());
        assertEquals(1, second.snIndex());
        assertEquals("10.0.0.100", second.value().upfAddress().toString());
        assertEquals(2, second.value().cell());
    }

    @Test
    public void badSectionsAreRefusedNamingTheField() throws IOException {
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("{\"cells\": [" + CELL1 + "]}", "upfPort");
        bad.put("{\"upfPort\": 255, \"cells\": [" + CELL1 + "]}", "not the CPU port");
        bad.put("{\"upfPort\": 1, \"cells\": []}", "cells must list");
        bad.put("{\"upfPort\": 2, \"cells\": [" + CELL1 + "]}", "port 2 is already the UPF port");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL1 + ", " + CELL1.replace("100", "102")
                        .replace("\"radioPort\": 2", "\"radioPort\": 4") + "]}", "cell id 1 given twice");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL1 + ", " + CELL2.replace("101", "100") + "]}",
                "port 100 is already");
        bad.put("{\"upfPort\": 1, \"cells\": [{\"id\": 0, \"radioPort\": 2, \"baasPort\": 3}]}", "cell id 0");
        bad.put("{\"upfPort\": 1, \"cells\": [{\"id\": 1, \"radioPort\": 2, \"baasPort\": 3, \"x\": 1}]}",
                "unknown field x");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL1 + "], \"bearers\": [" + BEARER + "]}",
                "cell 2 is not a cell of the device");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"bearers\": [" + BEARER + ", " + BEARER + "]}",
                "bearer 13631489 given twice");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"bearers\": ["
                        + BEARER.replace("13631489", "0") + "]}", "bearer teid 0");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"bearers\": ["
                        + BEARER.replace("4660", "4294967296") + "]}", "uplinkTeid 4294967296");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"bearers\": ["
                        + BEARER.replace("02:00:00:00:0e:01", "nope") + "]}", "ueMac \"nope\"");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"bearers\": ["
                        + BEARER.replace("10.0.0.200", "10.0.0") + "]}", "gnbAddress \"10.0.0\"");
        bad.put("{\"upfPort\": 1, \"cells\": [" + CELL2 + "], \"radio\": 1}", "radio");
        for (Map.Entry<String, String> c : bad.entrySet()) {
            String error = load(c.getKey()).validationError().orElse("accepted");
            assertTrue(c.getKey() + ": " + error, error.contains(c.getValue()));
        }
    }

    @Test
    public void theRulesArePortRolesBearersBothWaysAndACloneSessionPerCell() throws IOException {
        GnbDeviceConfig c = load(GOOD);
        List<FlowRule> rules = GnbFlowRules.entries(new DefaultApplicationId(1, "test"), DEVICE, c);
        assertEquals(1 + 2 * 2, rules.stream().filter(r -> r.table().equals(PORTS)).count());
        assertEquals(2, rules.stream().filter(r -> r.table().equals(DOWNLINK_BEARERS)).count());
        assertEquals(2, rules.stream().filter(r -> r.table().equals(UPLINK_BEARERS)).count());
        assertEquals(9, rules.size());
        assertEquals(Map.of(3100, 100L, 3101, 101L), GnbFlowRules.cloneSessions(c));
    }
}
