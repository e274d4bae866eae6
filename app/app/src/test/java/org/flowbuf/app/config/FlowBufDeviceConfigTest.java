/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.VportId;
import org.flowbuf.app.southbound.VportSlot;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Loading and validating the per-device configuration.
 */
public class FlowBufDeviceConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DeviceId DEVICE = DeviceId.deviceId("device:s1");

    private static FlowBufDeviceConfig load(String json) throws IOException {
        JsonNode node = MAPPER.readTree(json.replace('\'', '"'));
        FlowBufDeviceConfig config = new FlowBufDeviceConfig();
        config.init(DEVICE, FlowBufDeviceConfig.CONFIG_KEY, node, MAPPER, c -> { });
        return config;
    }

    private static void assertRejected(String json, String expectedFragment) throws IOException {
        FlowBufDeviceConfig config = load(json);
        assertFalse(json, config.isValid());
        String error = config.validationError().orElse("");
        assertTrue("'" + error + "' should mention " + expectedFragment,
                   error.contains(expectedFragment));
    }

    @Test
    public void aChangedNodeIsJudgedAgain() throws IOException {
        FlowBufDeviceConfig config = load("{'agentAddress':'h:1',"
                + "'vports':[{'id':'vp1','switchPort':10}]}");
        assertEquals(Optional.empty(), config.validationError());
        assertEquals("asked again", Optional.empty(), config.validationError());
        ((ObjectNode) config.node().path("vports").get(0))
                .put("switchPort", 0);
        assertTrue(config.validationError().orElse("").contains("switchPort must be"));
        assertFalse(config.isValid());
        ((ObjectNode) config.node().path("vports").get(0))
                .put("switchPort", 10);
        assertTrue("valid again", config.isValid());
    }

    @Test
    public void readsAFullConfig() throws IOException {
        FlowBufDeviceConfig config = load("{'agentAddress':'10.0.0.1:28000','inProcess':true,"
                + "'tls':{'caCert':'/ca.pem','clientCert':'/c.pem','clientKey':'/k.pem'},"
                + "'vports':[{'id':'vp1','switchPort':10,'interface':'fbv1'},"
                + "{'id':'vp2','switchPort':11}]}");
        assertEquals(Optional.empty(), config.validationError());
        assertEquals("10.0.0.1", config.agentAddress().host());
        assertEquals(28000, config.agentAddress().port());
        assertTrue(config.inProcess());
        assertEquals("/ca.pem", config.tls().get().caCert());
        assertEquals(Optional.of("/k.pem"), config.tls().get().clientKey());
        assertEquals(2, config.vportSlots().size());
        assertEquals(VportId.vportId("vp2"), config.vportSlots().get(1).id());
        assertEquals(11, config.vportSlots().get(1).switchPort());
        assertEquals(0, config.vportSlots().get(1).txRateBps());
        assertEquals(Optional.empty(), config.vportSlots().get(1).agentInterface());
    }

    @Test
    public void taggedVportEntryMakesLogicalVportsOnOnePort() throws IOException {
        FlowBufDeviceConfig config = load("{'agentAddress':'h:1','readyBuffers':3,"
                + "'vports':[{'id':'vp1','switchPort':10},"
                + "{'id':'ue','switchPort':11,'interface':'fbu','tags':3}]}");
        assertEquals(Optional.empty(), config.validationError());
        List<VportSlot> slots = config.vportSlots();
        assertEquals(4, slots.size());
        assertEquals(0, slots.get(0).tag());
        for (int tag = 1; tag <= 3; tag++) {
            VportSlot slot = slots.get(tag);
            assertEquals(VportId.vportId("ue." + tag), slot.id());
            assertEquals(11, slot.switchPort());
            assertEquals(tag, slot.tag());
            assertEquals(Optional.of("fbu"), slot.agentInterface());
        }
    }

    @Test
    public void rejectsBadTags() throws IOException {
        String head = "{'agentAddress':'h:1','vports':[{'id':'ue','switchPort':11,'tags':";
        assertRejected(head + "0}]}", "vports[0].tags must be an integer in 1..65536");
        assertRejected(head + "65537}]}", "vports[0].tags must be an integer in 1..65536");
        assertRejected(head + "'many'}]}", "vports[0].tags");
        assertRejected(head + "1.5}]}", "vports[0].tags");
        String longId = "u".repeat(62);
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'" + longId
                               + "','switchPort':11,'tags':100}]}", "too long for its tagged");
        assertRejected(head + "2}],'readyBuffers':3}", "readyBuffers must be an integer in 0..2");
    }

    @Test
    public void minimalConfigIsPlaintextAndExternal() throws IOException {
        FlowBufDeviceConfig config = load("{'agentAddress':'agent-s1:28000'}");
        assertTrue(config.isValid());
        assertFalse(config.inProcess());
        assertEquals(Optional.empty(), config.tls());
        assertTrue(config.vportSlots().isEmpty());
    }

    @Test
    public void rejectsBadAddresses() throws IOException {
        assertRejected("{}", "agentAddress is required");
        assertRejected("{'agentAddress':28000}", "agentAddress is required");
        assertRejected("{'agentAddress':'agent-s1'}", "not host:port");
        assertRejected("{'agentAddress':':28000'}", "not host:port");
        assertRejected("{'agentAddress':'h:99999'}", "agentAddress");
        assertRejected("{'agentAddress':'h:1','inProcess':'yes'}", "inProcess");
    }

    @Test
    public void rejectsUnknownFields() throws IOException {
        assertRejected("{'agentAddress':'h:1','agentAdress':'h:2'}", "unknown field");
    }

    @Test
    public void rejectsIncompleteTls() throws IOException {
        assertRejected("{'agentAddress':'h:1','tls':'on'}", "tls must be an object");
        assertRejected("{'agentAddress':'h:1','tls':{'clientCert':'/c'}}", "tls.caCert");
        assertRejected("{'agentAddress':'h:1','tls':{'caCert':'/ca','clientCert':'/c'}}",
                       "go together");
    }

    @Test
    public void rejectsBadVports() throws IOException {
        assertRejected("{'agentAddress':'h:1','vports':{}}", "vports must be an array");
        assertRejected("{'agentAddress':'h:1','vports':[{'switchPort':3}]}", "vports[0].id");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'v','switchPort':3,'txRateBps':-1}]}",
                       "vports[0].txRateBps");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'v','switchPort':3,'txRateBps':'x'}]}",
                       "vports[0].txRateBps");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'a b','switchPort':3}]}",
                       "not a valid vport id");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'a','switchPort':0}]}",
                       "vports[0].switchPort");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'a','switchPort':'3'}]}",
                       "vports[0].switchPort");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'a','switchPort':3},"
                               + "{'id':'a','switchPort':4}]}", "vports[1].id a is used twice");
        assertRejected("{'agentAddress':'h:1','vports':[{'id':'a','switchPort':3},"
                               + "{'id':'b','switchPort':3}]}", "switchPort 3 is used twice");
    }

    @Test
    public void readyBuffersAreCountedAgainstTheVports() throws IOException {
        String twoVports = "'vports':[{'id':'a','switchPort':3},{'id':'b','switchPort':4}]";
        assertEquals(0, load("{'agentAddress':'h:1'," + twoVports + "}").readyBuffers());
        FlowBufDeviceConfig two = load("{'agentAddress':'h:1'," + twoVports
                                               + ",'readyBuffers':2}");
        assertTrue(two.isValid());
        assertEquals(2, two.readyBuffers());
        assertRejected("{'agentAddress':'h:1'," + twoVports + ",'readyBuffers':3}",
                       "readyBuffers must be an integer in 0..2");
        assertRejected("{'agentAddress':'h:1'," + twoVports + ",'readyBuffers':-1}",
                       "readyBuffers");
        assertRejected("{'agentAddress':'h:1'," + twoVports + ",'readyBuffers':'1'}",
                       "readyBuffers");
        assertRejected("{'agentAddress':'h:1','readyBuffers':1}", "0..0");
    }

    @Test
    public void theShippedNetcfgIsValid() throws IOException {
        // stratum-configs/netcfg.json is generated by a script; ONOS would ignore a
        // device whose section this class rejects, so the generator must agree with it.
        JsonNode root = MAPPER.readTree(Files.readString(
                Path.of("../../stratum-configs/netcfg.json")));
        int devices = 0;
        for (JsonNode device : root.path("devices")) {
            FlowBufDeviceConfig config = new FlowBufDeviceConfig();
            config.init(DEVICE, FlowBufDeviceConfig.CONFIG_KEY,
                        (com.fasterxml.jackson.databind.node.ObjectNode) device.get("flowbuf"),
                        MAPPER, c -> { });
            assertEquals(Optional.empty(), config.validationError());
            assertFalse(config.vportSlots().isEmpty());
            devices++;
        }
        assertTrue(devices > 0);
    }
}
