/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.app.rest.FlowBufWebApplication;
import org.flowbuf.app.rest.StandaloneServices;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.JerseyTest;
import org.junit.Test;
import org.onlab.packet.MacAddress;
import org.onlab.rest.AuthorizationFilter;
import org.onosproject.codec.CodecService;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;

import javax.ws.rs.client.Entity;
import javax.ws.rs.core.Application;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * congestion/flows over HTTP against the real service on the paper's
 * topology: every operation, and bad requests answered 4xx with a message
 * and nothing written.
 */
public class CongestionRestTest extends JerseyTest {

    private static final String FLOW = "{\"srcHost\":\"h1\",\"dstHost\":\"h2\",\"budgetUs\":5000,"
            + "\"m\":5,\"x\":2,\"filter\":{\"ipv4Dst\":\"10.0.0.2/32\",\"ipProto\":17,"
            + "\"l4DstPort\":5000}}";

    private final ObjectMapper mapper = new ObjectMapper();
    private RecordingCcWriter writer;

    @Override
    protected Application configure() {
        AuthorizationFilter.disableForTests();
        return ResourceConfig.forApplication(new FlowBufWebApplication());
    }

    @Override
    public void setUp() throws Exception {
        super.setUp();
        Topo topo = Topo.paper();
        writer = new RecordingCcWriter();
        CcHosts hosts = name -> name.equals("h1")
                ? Optional.of(new CcHosts.Endpoint(MacAddress.valueOf("00:00:00:00:00:01"),
                                                    new ConnectPoint(sw(1), PortNumber.portNumber(1))))
                : name.equals("h2")
                ? Optional.of(new CcHosts.Endpoint(MacAddress.valueOf("00:00:00:00:00:02"),
                                                    new ConnectPoint(sw(7), PortNumber.portNumber(1))))
                : Optional.empty();
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        new StandaloneServices()
                .add(CongestionService.class, new CongestionManager(
                        new DefaultApplicationId(1, "test"), hosts,
                        new SuurballePathFinder(() -> topo.links),
                        new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), writer,
                        Clock.systemUTC(), s -> { }, probes()))
                .add(CodecService.class, codecs).install();
    }

    /** A scheduler whose timer never ticks: probing flows register, no probe leaves. */
    private static ProbeScheduler probes() {
        return new ProbeScheduler((d, p, f) -> { }, new ProbeTimer() {
            @Override
            public Runnable every(long periodMs, Runnable task) {
                return () -> { };
            }

            @Override
            public void execute(Runnable task) {
            }
        }, System::nanoTime);
    }

    private Response post(String body) {
        return target("congestion/flows").request()
                .post(Entity.entity(body, MediaType.APPLICATION_JSON));
    }

    private JsonNode json(Response response) throws IOException {
        return mapper.readTree(response.readEntity(String.class));
    }

    private void assertError(Response response, int status, String part) throws IOException {
        assertEquals(status, response.getStatus());
        String message = json(response).get("message").asText();
        assertTrue(message + " should mention " + part, message.contains(part));
    }

    @Test
    public void aFlowIsRegisteredShownAndRemoved() throws IOException {
        Response created = post(FLOW);
        assertEquals(201, created.getStatus());
        JsonNode flow = json(created);
        long id = flow.get("id").asLong();
        assertEquals("device:s1", flow.get("primary").get(0).get("deviceId").asText());
        assertEquals(4, flow.get("backup").size());
        assertEquals(4 + 2, flow.get("thresholds").size());
        assertEquals(20, flow.get("thresholds").get(0).get("queueUs").asLong());
        assertEquals("DATAPLANE", flow.get("mode").asText());

        assertEquals(1, json(target("congestion/flows").request().get()).get("flows").size());
        JsonNode one = json(target("congestion/flows/" + id).request().get());
        assertEquals(0, one.get("switchOvers").size());
        assertTrue(one.get("lastDelays") == null);
        assertTrue(one.get("ordered") == null);  // not an ordered flow

        assertEquals(204, target("congestion/flows/" + id).request().delete().getStatus());
        assertTrue(writer.entries.isEmpty());
        assertError(target("congestion/flows/" + id).request().get(), 404, "no latency-critical");
        assertError(target("congestion/flows/" + id).request().delete(), 404,
                    "no latency-critical");
    }

    @Test
    public void badRegistrationsAre4xxAndWriteNothing() throws IOException {
        assertError(post(FLOW.replace("\"h2\"", "\"h9\"")), 404, "h9");
        assertError(post(FLOW.replace("\"m\":5", "\"m\":0")), 400, "\"m\"");
        assertError(post(FLOW.replace("\"m\":5", "\"m\":4294967296")), 400, "\"m\"");
        assertError(post(FLOW.replace("\"budgetUs\":5000", "\"budgetUs\":10")), 400,
                    "idle delay");
        assertError(post(FLOW.replace("\"x\":2", "\"x\":0.5")), 400, "\"x\"");
        assertError(post(FLOW.replace("\"x\":2", "\"x\":\"two\"")), 400, "\"x\"");
        assertError(post(FLOW.replace("\"m\":5", "\"mode\":\"SOMETIMES\"")), 400, "mode");
        assertError(post(FLOW.replace("\"m\":5", "\"color\":1")), 400, "color");
        assertError(post(FLOW.replace(",\"budgetUs\":5000", "")), 400, "budgetUs");
        // This service has no Buffer Service for a merge buffer.
        assertError(post(FLOW.replace("\"m\":5", "\"m\":5,\"orderedSwitchover\":true")), 400,
                    "orderedSwitchover");
        assertError(post("[]"), 400, "");
        assertError(target("congestion/flows/abc").request().get(), 400, "id");
        assertError(target("congestion/flows/0").request().delete(), 400, "id");
        assertTrue(writer.writes.isEmpty());
    }

    @Test
    public void aProbingFlowShowsItsIntervalAndProbes() throws IOException {
        Response created = post(FLOW.replace("\"m\":5,\"x\":2",
                                             "\"mode\":\"PROBING\",\"probeIntervalMs\":2000"));
        assertEquals(201, created.getStatus());
        JsonNode flow = json(created);
        assertEquals("PROBING", flow.get("mode").asText());
        assertEquals(4, flow.get("backup").size());
        assertEquals(0, flow.get("thresholds").size());
        JsonNode one = json(target("congestion/flows/" + flow.get("id").asLong()).request().get());
        assertEquals(2000, one.get("probeIntervalMs").asLong());
        assertEquals(0, one.get("probes").get("sent").asLong());
        assertEquals(0, one.get("probes").get("lost").asLong());
        assertEquals(0, one.get("probes").get("late").asLong());
        assertTrue(one.get("probes").get("lastDelayUs") == null);  // none back yet
    }

    @Test
    public void badProbeIntervalsAre400AndWriteNothing() throws IOException {
        String probing = FLOW.replace("\"m\":5,\"x\":2",
                                      "\"mode\":\"PROBING\",\"probeIntervalMs\":IV");
        for (String bad : new String[]{"99", "60001", "0", "-5", "\"1s\"", "1.5"}) {
            assertError(post(probing.replace("IV", bad)), 400, "probeIntervalMs");
        }
        // Only PROBING takes an interval.
        assertError(post(FLOW.replace("\"m\":5", "\"probeIntervalMs\":1000")), 400,
                    "probeIntervalMs");
        assertTrue(writer.writes.isEmpty());
    }

    @Test
    public void theSame5TupleTwiceIsAConflict() throws IOException {
        assertEquals(201, post(FLOW).getStatus());
        assertError(post(FLOW), 409, "same 5-tuple");
    }
}
