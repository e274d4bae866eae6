/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.PortRange;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDirection;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.io.IOException;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The UPF model's JSON: what each codec accepts, and the message of each refusal. */
public class UpfCodecsTest {

    private static final String SESSION = "{\"deviceId\": \"device:s1\", \"ueAddress\": \"10.250.0.1\", "
            + "\"n3Address\": \"10.0.0.100\", \"uplinkTeid\": 4660, \"gnbAddress\": \"10.0.0.1\", "
            + "\"downlinkTeid\": 11259137, \"qfi\": 9%s}";

    private final MapperOnlyContext context = new MapperOnlyContext();

    private ObjectNode json(String text) throws IOException {
        return (ObjectNode) context.mapper().readTree(text);
    }

    private PduSession session(String extra) throws IOException {
        return new PduSessionCodec().decode(json(String.format(SESSION, extra)), context);
    }

    private void assertRefused(String extra, String message) throws IOException {
        try {
            PduSession s = session(extra);
            fail(extra + " decoded as " + s);
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage() + " should say " + message, e.getMessage().contains(message));
        }
    }

    @Test
    public void sessionRoundTrips() throws IOException {
        PduSession s = session(", \"gnbPort\": 41000, \"ambr\": {\"cir\": 1000, \"cburst\": 1500, "
                                       + "\"pir\": 2000, \"pburst\": 3000}");
        assertEquals(DeviceId.deviceId("device:s1"), s.deviceId());
        assertEquals(Ip4Address.valueOf("10.250.0.1"), s.ueAddress());
        assertEquals(0x1234, s.uplinkTeid());
        assertEquals(0xABCD01, s.downlinkTeid());
        assertEquals(41000, s.gnbPort());
        assertEquals(UpfMeter.of(1000, 1500, 2000, 3000), s.ambr().get());
        ObjectNode encoded = new PduSessionCodec().encode(s, context);
        assertEquals(s, new PduSessionCodec().decode(encoded, context));
        assertEquals(PduSession.GTPU_PORT, session("").gnbPort());
        assertFalse(session("").ambr().isPresent());
    }

    @Test
    public void badSessionsAreRefusedWithWhatIsWrong() throws IOException {
        String meter = ", \"ambr\": {\"cir\": %s, \"cburst\": 1500, \"pir\": %s, \"pburst\": 1500}";
        assertRefused(String.format(meter, 0, 1000), "cir must be between 1 and 4294967295");
        assertRefused(String.format(meter, -5, 1000), "\"cir\" must be a non-negative integer");
        assertRefused(String.format(meter, 1000, 4294967296L), "pir must be between 1 and 4294967295");
        assertRefused(String.format(meter, 2000, 1000), "pir (1000 bytes/s) must be at least cir");
        assertRefused(", \"ambr\": {\"cir\": 1, \"cburst\": 1, \"pir\": 1}", "\"pburst\" is required");
        assertRefused(", \"qfi2\": 1", "unknown field \"qfi2\"");
        assertRefused(", \"gnbPort\": 70000", "gnbPort must be between 1 and 65535");
        try {
            new PduSessionCodec().decode(json(String.format(SESSION, "").replace("9", "64")), context);
            fail("qfi 64 accepted");
        } catch (FlowBufException e) {
            assertEquals("qfi must be between 0 and 63, got 64", e.getMessage());
        }
        for (String[] bad : new String[][]{
                {"10.250.0.1", "10.250.0.256", "\"ueAddress\""},
                {"10.250.0.1", "224.0.0.1", "not a unicast address"},
                {"10.250.0.1", "::1", "not an IPv4 address"},
                {"10.0.0.100", "0.0.0.0", "not a unicast address"},
                // 0/8 and 240/4 are no unicast addresses either (the document's Ipv4Address).
                {"10.0.0.100", "0.1.2.3", "not a unicast address"},
                {"10.250.0.1", "240.0.0.1", "not a unicast address"},
                {"4660", "0", "uplinkTeid must be between 1 and 4294967295"},
                {"11259137", "4294967296", "downlinkTeid must be between 1"},
                {"device:s1", "s1", "bad device id \"s1\""},
                {"device:s1", "device:s 1", "bad device id \"device:s 1\""},
                {"device:s1", "device:s1/2", "bad device id \"device:s1/2\""}}) {
            String text = String.format(SESSION, "").replace(bad[0], bad[1]);
            try {
                new PduSessionCodec().decode(json(text), context);
                fail(text + " accepted");
            } catch (FlowBufException e) {
                assertTrue(e.getMessage() + " should say " + bad[2], e.getMessage().contains(bad[2]));
            }
        }
    }

    @Test
    public void applicationsFirewallRulesAndInterfaces() throws IOException {
        UpfApplication app = new UpfApplicationCodec().decode(json(
                "{\"deviceId\": \"device:s1\", \"appId\": 7, \"priority\": 10, \"qfi\": 5, "
                        + "\"filter\": {\"ipProto\": 17, \"appPorts\": {\"low\": 8000, \"high\": 8999}},"
                        + " \"meter\": {\"cir\": 1, \"cburst\": 2, \"pir\": 3, \"pburst\": 4}}"), context);
        assertEquals(PortRange.of("appPorts", 8000, 8999), app.filter().appPort());
        assertTrue(app.filter().uePort().isAny());
        assertEquals(app, new UpfApplicationCodec().decode(new UpfApplicationCodec().encode(app, context),
                                                           context));
        FirewallRule rule = new FirewallRuleCodec().decode(json(
                "{\"deviceId\": \"device:s1\", \"action\": \"deny\", "
                        + "\"filter\": {\"ueAddress\": \"10.250.0.0/16\"}}"), context);
        assertEquals(UpfDirection.BOTH, rule.direction());
        assertEquals(FirewallRule.Action.DENY, rule.action());
        assertEquals(Ip4Prefix.valueOf("10.250.0.0/16"), rule.filter().ueAddress().get());
        UpfInterface iface = new UpfInterfaceCodec().decode(json(
                "{\"deviceId\": \"device:s1\", \"kind\": \"ACCESS\", \"prefix\": \"10.0.0.100/32\"}"),
                                                            context);
        assertEquals(UpfInterface.Kind.ACCESS, iface.kind());

        String[][] refused = {
                {"{\"deviceId\": \"device:s1\", \"appId\": 0, \"qfi\": 1, \"filter\": {\"ipProto\": 6}}",
                        "appId must be between 1 and 255"},
                {"{\"deviceId\": \"device:s1\", \"appId\": 3, \"qfi\": 1}", "the filter names no field"},
                {"{\"deviceId\": \"device:s1\", \"appId\": 3, \"qfi\": 1, \"filter\": "
                         + "{\"uePorts\": {\"low\": 9, \"high\": 8}}}", "the range 9-8 is empty"},
                {"{\"deviceId\": \"device:s1\", \"appId\": 3, \"qfi\": 1, \"filter\": "
                         + "{\"ueAddress\": \"10.250.0.1/16\"}}", "has host bits set"},
                {"{\"deviceId\": \"device:s1\", \"appId\": 3, \"qfi\": 1, \"filter\": "
                         + "{\"ipProto\": 256}}", "ipProto must be between 0 and 255"},
        };
        for (String[] bad : refused) {
            try {
                new UpfApplicationCodec().decode(json(bad[0]), context);
                fail(bad[0] + " accepted");
            } catch (FlowBufException e) {
                assertTrue(e.getMessage() + " should say " + bad[1], e.getMessage().contains(bad[1]));
            }
        }
        for (String[] bad : new String[][]{
                {"{\"deviceId\": \"device:s1\", \"kind\": \"ACCESS\", \"prefix\": \"10.0.0.0/24\"}",
                        "an ACCESS interface is one N3 address"},
                {"{\"deviceId\": \"device:s1\", \"kind\": \"N6\", \"prefix\": \"10.0.0.0/24\"}",
                        "\"kind\" must be one of"},
                {"{\"deviceId\": \"device:s1\", \"kind\": \"CORE\", \"prefix\": \"10.0.0.1\"}",
                        "is not a prefix"}}) {
            try {
                new UpfInterfaceCodec().decode(json(bad[0]), context);
                fail(bad[0] + " accepted");
            } catch (FlowBufException e) {
                assertTrue(e.getMessage() + " should say " + bad[1], e.getMessage().contains(bad[1]));
            }
        }
        try {
            new FirewallRuleCodec().decode(json("{\"deviceId\": \"device:s1\", \"priority\": 0, "
                                                        + "\"action\": \"ALLOW\"}"), context);
            fail("priority 0 accepted");
        } catch (FlowBufException e) {
            assertEquals("priority must be between 1 and 65535, got 0", e.getMessage());
        }
    }

    @Test
    public void aPlacementShowsWhenItsSessionWasActiveAndWhenItsPacketsWent() {
        ObjectNode p = new UePlacementCodec().encode(new UePlacement(
                Ip4Address.valueOf("10.250.0.1"), UePlacement.Path.FAST, false, 8000, 1, 0, 2500, 500),
                                                     context);
        assertEquals(2500, p.get("lastMoveUs").asLong());
        assertEquals(500, p.get("lastActiveUs").asLong());
        // A move whose Write is the move (a demotion) is active when done.
        ObjectNode d = new UePlacementCodec().encode(new UePlacement(
                Ip4Address.valueOf("10.250.0.1"), UePlacement.Path.SLOW, false, 0, 1, 1, 700), context);
        assertEquals(700, d.get("lastActiveUs").asLong());
    }
}
