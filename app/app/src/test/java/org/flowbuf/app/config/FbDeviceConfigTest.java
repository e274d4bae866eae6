/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.flowbuf.pipeconf.FbP4Names.BUFFER;
import static org.flowbuf.pipeconf.FbP4Names.CLASSES;
import static org.flowbuf.pipeconf.FbP4Names.SHIFT;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The "fb" device section: what it reads, what it refuses, the rules it makes.
 */
public class FbDeviceConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DeviceId DEVICE = DeviceId.deviceId("device:s1");

    private static FbDeviceConfig load(String json) throws IOException {
        FbDeviceConfig config = new FbDeviceConfig();
        config.init(DEVICE, FbDeviceConfig.CONFIG_KEY, (ObjectNode) MAPPER.readTree(json), MAPPER,
                    c -> { });
        return config;
    }

    private static final String GOOD = "{\"bufferPackets\": 400, \"ports\": [1, 2], "
            + "\"classes\": [{\"queue\": 7, \"alpha\": 2, \"priority\": \"high\"}]}";

    @Test
    public void aSectionGivesBufferPortsAndEachQueuesClass() throws IOException {
        FbDeviceConfig c = load(GOOD);
        assertTrue(c.validationError().toString(), c.isValid());
        assertEquals(400, c.bufferPackets());
        assertEquals(Set.of(1L, 2L), c.ports());
        assertArrayEquals(new double[]{1, 1, 1, 1, 1, 1, 1, 2}, c.alphas(), 0);
        assertTrue(c.high()[7]);
        assertEquals(false, c.high()[0]);
    }

    @Test
    public void badSectionsAreRefusedNamingTheField() throws IOException {
        Map<String, String> bad = Map.of(
                "{\"ports\": [1]}", "bufferPackets must be",
                "{\"bufferPackets\": 0, \"ports\": [1]}", "bufferPackets must be",
                "{\"bufferPackets\": 4294967296, \"ports\": [1]}", "bufferPackets must be",
                "{\"bufferPackets\": 10, \"ports\": []}", "ports must list",
                "{\"bufferPackets\": 10, \"ports\": [255]}", "not the CPU port",
                "{\"bufferPackets\": 10, \"ports\": [1, 1]}", "listed twice",
                "{\"bufferPackets\": 10, \"ports\": [1], \"classes\": [{\"queue\": 8}]}",
                "want 0..7",
                "{\"bufferPackets\": 10, \"ports\": [1], \"classes\": [{\"queue\": 1, "
                        + "\"alpha\": 0}]}", "alpha 0 must be",
                "{\"bufferPackets\": 10, \"ports\": [1], \"classes\": [{\"queue\": 1, "
                        + "\"priority\": \"urgent\"}]}", "want low or high",
                "{\"bufferPackets\": 10, \"ports\": [1], \"alpha\": 2}", "unknown field alpha");
        for (Map.Entry<String, String> c : bad.entrySet()) {
            String error = load(c.getKey()).validationError().orElse("accepted");
            assertTrue(c.getKey() + ": " + error, error.contains(c.getValue()));
        }
    }

    @Test
    public void theRulesAreAClassPerPortAndQueueTheShiftsAndB() throws IOException {
        List<FlowRule> rules = FbFlowRules.of(new DefaultApplicationId(1, "test"), DEVICE,
                                              load(GOOD));
        assertEquals(2 * 8, rules.stream().filter(r -> r.table().equals(CLASSES)).count());
        // Two alphas (1 and 2), 8 port shares each, a handful of N_p ranges.
        long shifts = rules.stream().filter(r -> r.table().equals(SHIFT)).count();
        assertTrue("shift entries " + shifts, shifts >= 2 * 8 && shifts <= 2 * 8 * 6);
        FlowRule b = rules.get(rules.size() - 1);
        assertEquals(BUFFER, b.table());
        assertNull("B is the default action: no match",
                   b.selector().getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT));
    }
}
