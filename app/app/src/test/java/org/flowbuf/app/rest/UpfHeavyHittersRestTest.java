/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.app.upf.HeavyHitterManager;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.JerseyTest;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.rest.AuthorizationFilter;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;

import javax.ws.rs.client.Entity;
import javax.ws.rs.core.Application;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * upf/heavy-hitters: the detector's settings (checked, written to the
 * switches) and the reports.
 */
public class UpfHeavyHittersRestTest extends JerseyTest {

    private static final String SETTINGS = "upf/heavy-hitters/settings";

    private final ObjectMapper mapper = new ObjectMapper();
    private final List<HeavyHitterSettings> written = new CopyOnWriteArrayList<>();
    private volatile boolean switchDown;
    private HeavyHitterManager manager;

    @Override
    protected Application configure() {
        AuthorizationFilter.disableForTests();
        return ResourceConfig.forApplication(new FlowBufWebApplication());
    }

    @Override
    public void setUp() throws Exception {
        super.setUp();
        manager = new HeavyHitterManager(s -> {
            if (switchDown) {
                throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                           "device:s1 did not take the settings");
            }
            written.add(s);
        }, HeavyHitterSettings.defaults());
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        new StandaloneServices().add(HeavyHitterService.class, manager)
                .add(CodecService.class, codecs).install();
    }

    private Response put(String body) {
        return target(SETTINGS).request().put(Entity.entity(body, MediaType.APPLICATION_JSON));
    }

    private JsonNode json(Response response) throws IOException {
        return mapper.readTree(response.readEntity(String.class));
    }

    @Test
    public void settingsAreWrittenToTheSwitchesWithTheThresholdTheyTake() throws IOException {
        JsonNode before = json(target(SETTINGS).request().get());
        assertEquals(false, before.get("enabled").asBoolean());
        assertEquals(2_000_000, before.get("rateBps").asLong());

        Response set = put("{\"enabled\":true,\"rateBps\":10000000,\"packetBytes\":1250,"
                                   + "\"idleMs\":500}");
        assertEquals(200, set.getStatus());
        JsonNode s = json(set);
        assertEquals(8000, s.get("thresholdEighthsUs").asLong());  // a packet every 1000 µs
        assertEquals(500_000, s.get("idleUs").asLong());
        assertEquals(List.of(HeavyHitterSettings.of(true, 10_000_000, 1250, 500)), written);
        assertEquals(s, json(target(SETTINGS).request().get()));
        assertEquals("none unless set", 0, s.get("minObserveMs").asLong());
        assertEquals(0, s.get("minWindowBytes").asLong());
    }

    @Test
    public void aMinimumObservationIsWrittenWithTheBytesItTakes() throws IOException {
        Response set = put("{\"enabled\":true,\"rateBps\":10000000,\"packetBytes\":1250,"
                                   + "\"idleMs\":500,\"minObserveMs\":300}");
        assertEquals(200, set.getStatus());
        JsonNode s = json(set);
        assertEquals(300, s.get("minObserveMs").asLong());
        assertEquals(300_000, s.get("minObserveUs").asLong());
        assertEquals(375_000, s.get("minWindowBytes").asLong());  // 10 Mbit/s for 300 ms
        assertEquals(List.of(HeavyHitterSettings.of(true, 10_000_000, 1250, 500, 300)), written);
    }

    @Test
    public void badSettingsAre400AndChangeNothing() throws IOException {
        String[][] bad = {
            {"{\"rateBps\":999}", "rateBps"},
            {"{\"rateBps\":-5}", "rateBps"},
            {"{\"rateBps\":\"fast\"}", "rateBps"},
            {"{\"packetBytes\":10000}", "packetBytes"},
            {"{\"idleMs\":0}", "idleMs"},
            {"{\"idleMs\":3600001}", "idleMs"},
            {"{\"enabled\":\"yes\"}", "enabled"},
            {"{\"threshold\":5}", "unknown field"},
            {"{\"minObserveMs\":-1}", "\"minObserveMs\" must be a non-negative integer"},
            {"{\"minObserveMs\":60001}", "\"minObserveMs\" must be 0..60000 ms, got 60001"},
            {"{\"minObserveMs\":\"long\"}", "minObserveMs"},
            {"{\"minObserveMs\":1.5}", "minObserveMs"},
            {"{\"rateBps\":100000000000,\"packetBytes\":64}", "1/8 µs"},
            {"{\"rateBps\":2000000,\"packetBytes\":1500,\"idleMs\":6}", "not under idleMs"},
            {"[1]", ""},
            {"{", ""},
        };
        JsonNode before = json(target(SETTINGS).request().get());
        for (String[] b : bad) {
            Response r = put(b[0]);
            assertEquals(b[0], 400, r.getStatus());
            String message = json(r).get("message").asText();
            assertTrue(b[0] + ": " + message, message.contains(b[1]));
        }
        assertEquals("bad settings write nothing", List.of(), written);
        assertEquals(before, json(target(SETTINGS).request().get()));
    }

    @Test
    public void aSwitchThatDoesNotTakeThemIs503() throws IOException {
        switchDown = true;
        Response r = put("{\"enabled\":true}");
        assertEquals(503, r.getStatus());
        assertTrue(json(r).get("message").asText().contains("device:s1"));
    }

    @Test
    public void reportsAreListedOldestFirstAndHandedToListeners() throws IOException {
        List<HeavyHitter> heard = new CopyOnWriteArrayList<>();
        manager.addListener(heard::add);
        HeavyHitter first = report("10.250.0.1", 4000);
        HeavyHitter second = report("10.250.0.2", 4001);
        manager.reported(first);
        manager.reported(second);
        assertEquals(List.of(first, second), heard);
        JsonNode list = json(target("upf/heavy-hitters").request().get()).get("heavyHitters");
        assertEquals(2, list.size());
        JsonNode h = list.get(0);
        assertEquals("10.250.0.1", h.get("ueAddress").asText());
        assertEquals("10.0.2.2", h.get("appAddress").asText());
        assertEquals(17, h.get("ipProto").asInt());
        assertEquals(4000, h.get("uePort").asInt());
        assertEquals(100.5, h.get("ewmaGapUs").asDouble(), 1e-9);
        assertEquals("device:s1", h.get("deviceId").asText());
        assertEquals("10.250.0.2", list.get(1).get("ueAddress").asText());
    }

    @Test
    public void theHistoryKeepsTheLatestReports() {
        for (int i = 0; i < HeavyHitterManager.HISTORY + 5; i++) {
            manager.reported(report("10.250.1." + (i % 250 + 1), i));
        }
        List<HeavyHitter> recent = manager.recent();
        assertEquals(HeavyHitterManager.HISTORY, recent.size());
        assertEquals(5, recent.get(0).uePort());
    }

    private static HeavyHitter report(String ue, int uePort) {
        return new HeavyHitter(DeviceId.deviceId("device:s1"), Ip4Address.valueOf(ue),
                               Ip4Address.valueOf("10.0.2.2"), 17, uePort, 8080, 804, 42,
                               Instant.parse("2026-11-28T23:00:00Z"));
    }
}
