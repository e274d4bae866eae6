/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbCell;
import org.flowbuf.api.gnb.GnbDevice;
import org.junit.Test;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The gNodeB's JSON: a bearer round-trips, each bad field is refused by name; a device's view. */
public class GnbCodecsTest {

    private static final String BEARER = "{\"teid\": %s, \"cell\": %s, \"ueMac\": %s, "
            + "\"uplinkTeid\": 4660, \"gnbAddress\": \"10.0.0.200\", \"upfAddress\": %s%s}";

    private final MapperOnlyContext context = new MapperOnlyContext();

    private GnbBearer bearer(String teid, String cell, String mac, String upf, String extra)
            throws IOException {
        return new GnbBearerCodec().decode((ObjectNode) context.mapper().readTree(
                String.format(BEARER, teid, cell, mac, upf, extra)), context);
    }

    @Test
    public void aBearerRoundTrips() throws IOException {
        GnbBearer b = bearer("13631489", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", "");
        assertEquals(13631489, b.teid());
        assertEquals(MacAddress.valueOf("02:00:00:00:0e:01"), b.ueMac());
        assertEquals(b, new GnbBearerCodec().decode(new GnbBearerCodec().encode(b, context),
                                                    context));
    }

    @Test
    public void eachBadFieldIsRefusedByName() throws IOException {
        Map<String[], String> bad = new LinkedHashMap<>();
        bad.put(new String[]{"0", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ""}, "teid");
        bad.put(new String[]{"4294967296", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ""},
                "teid");
        bad.put(new String[]{"\"5\"", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ""}, "teid");
        bad.put(new String[]{"5", "0", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ""}, "cell");
        bad.put(new String[]{"5", "65536", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ""}, "cell");
        bad.put(new String[]{"5", "1", "\"02-00-00-00-0e-01\"", "\"10.0.0.100\"", ""}, "ueMac");
        bad.put(new String[]{"5", "1", "\"2:0:0:0:e:1\"", "\"10.0.0.100\"", ""}, "ueMac");
        bad.put(new String[]{"5", "1", "7", "\"10.0.0.100\"", ""}, "ueMac");
        bad.put(new String[]{"5", "1", "\"02:00:00:00:0e:01\"", "\"224.0.0.1\"", ""}, "upfAddress");
        bad.put(new String[]{"5", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0\"", ""}, "upfAddress");
        bad.put(new String[]{"5", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", ", \"qfi\": 1"},
                "unknown field \"qfi\"");
        for (Map.Entry<String[], String> b : bad.entrySet()) {
            String[] f = b.getKey();
            try {
                GnbBearer decoded = bearer(f[0], f[1], f[2], f[3], f[4]);
                fail(String.join(" ", f) + " decoded as " + decoded);
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
                assertTrue(e.getMessage() + " should name " + b.getValue(),
                           e.getMessage().contains(b.getValue()));
            }
        }
    }

    @Test
    public void aDeviceShowsItsCellsAndEachBearersSnCell() throws IOException {
        GnbBearer one = bearer("100", "1", "\"02:00:00:00:0e:01\"", "\"10.0.0.100\"", "");
        GnbBearer two = bearer("101", "1", "\"02:00:00:00:0e:02\"", "\"10.0.0.100\"", "");
        ObjectNode json = new GnbDeviceCodec().encode(new GnbDevice(
                DeviceId.deviceId("device:gnb1"), 1, List.of(new GnbCell(1, 2, 100)),
                List.of(one, two)), context);
        assertEquals("device:gnb1", json.get("deviceId").asText());
        assertEquals(100, json.get("cells").get(0).get("baasPort").asInt());
        assertEquals(101, json.get("bearers").get(1).get("teid").asLong());
        assertEquals(1, json.get("bearers").get(1).get("snIndex").asInt());
    }
}
