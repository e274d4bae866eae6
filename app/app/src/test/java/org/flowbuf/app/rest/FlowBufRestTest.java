/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Status;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.app.FlowBufCore;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.BufferAgentClient;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.flowbuf.app.southbound.InProcessAgent;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.JerseyTest;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.rest.AuthorizationFilter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import javax.ws.rs.client.Entity;
import javax.ws.rs.core.Application;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The REST API over HTTP against the real core, an in-process fake agent
 * and a recording rule writer: every resource, and every bad request is a
 * 4xx with a message that changes nothing.
 */
public class FlowBufRestTest extends JerseyTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final String PAUSE = "{\"deviceId\":\"device:s1\",\"inPort\":1,"
            + "\"filter\":{\"ipv4Src\":\"10.0.0.1/32\",\"ipProto\":17}}";
    private static final String RESUME = "{\"deviceId\":\"device:s1\",\"outPort\":3,"
            + "\"filter\":{\"ipv4Src\":\"10.0.0.1/32\",\"ipProto\":17}}";

    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private final ObjectMapper mapper = new ObjectMapper();
    private final List<String> rules = new CopyOnWriteArrayList<>();
    private final List<PortNumber> packetsOut = new CopyOnWriteArrayList<>();
    private FakeBufferAgent agent;

    @Override
    protected Application configure() {
        AuthorizationFilter.disableForTests();
        return ResourceConfig.forApplication(new FlowBufWebApplication());
    }

    @Override
    public void setUp() throws Exception {
        super.setUp();
        agent = new FakeBufferAgent();
        BufferAgentClient client = InProcessAgent.start(grpc, agent, "s1");
        AgentDirectory agents = new OneDeviceAgents(S1, client, OneDeviceAgents.twoVports());
        SteeringRuleWriter writer = new SteeringRuleWriter() {
            @Override
            public void install(DeviceId deviceId, SteeringRule rule) {
                rules.add("+" + rule.outPort());
            }

            @Override
            public void modify(DeviceId deviceId, SteeringRule rule) {
                rules.add("~" + rule.outPort());
            }

            @Override
            public void remove(DeviceId deviceId, SteeringRule rule) {
                rules.add("-" + rule.outPort());
            }
        };
        FlowBufCore core = new FlowBufCore(agents, new InMemoryBufferStore(), writer, e -> { },
                                           e -> { });
        MulticastGroupWriter groups = new MulticastGroupWriter() {
            @Override
            public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
                rules.add("+group" + groupId);
            }

            @Override
            public void remove(DeviceId deviceId, int groupId) {
                rules.add("-group" + groupId);
            }
        };
        StandaloneServices.forCore(core, writer, groups,
                                   (device, port, frame) -> packetsOut.add(port)).install();
    }

    private Response post(String path, String body) {
        return target(path).request().post(Entity.entity(body, MediaType.APPLICATION_JSON));
    }

    private JsonNode json(Response response) throws IOException {
        return mapper.readTree(response.readEntity(String.class));
    }

    private void assertError(Response response, int status, String messagePart) throws IOException {
        assertEquals(status, response.getStatus());
        JsonNode body = json(response);
        assertEquals(status, body.get("code").asInt());
        assertTrue(body.get("message").asText() + " should mention " + messagePart,
                   body.get("message").asText().contains(messagePart));
    }

    @Test
    public void devicesListTheirVports() throws IOException {
        JsonNode devices = json(target("devices").request().get()).get("devices");
        assertEquals(1, devices.size());
        assertEquals("device:s1", devices.get(0).get("id").asText());
        assertEquals(100, devices.get(0).get("vports").get(0).get("switchPort").asInt());
        assertEquals("NONE", devices.get(0).get("vports").get(0).get("mode").asText());
        assertError(target("devices/device:s9/vports").request().get(), 404, "device:s9");
        assertError(post("devices/device:s9/reconcile", ""), 404, "device:s9");
        assertError(post("devices/s1/reconcile", ""), 400, "bad device id");
        assertError(post("devices/device:" + "s".repeat(1018) + "/reconcile", ""), 400,
                    "bad device id");
        Response reconciled = post("devices/device:s1/reconcile", "");
        assertEquals(200, reconciled.getStatus());
        assertEquals(0, json(reconciled).get("events").size());
    }

    /**
     * Sends a request on a raw socket: the head, then body bytes (all of
     * them, unless stopping after `sent`), and reads the response.
     */
    private String rawRequest(String head, byte[] body, int sent) throws IOException {
        try (Socket socket = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, sent);
            out.flush();
            // The response's head, then as many bytes as it says: the server
            // may still wait for the body we did not send.
            InputStream in = socket.getInputStream();
            StringBuilder response = new StringBuilder();
            while (!response.toString().endsWith("\r\n\r\n")) {
                int c = in.read();
                if (c < 0) {
                    break;
                }
                response.append((char) c);
            }
            Matcher length = CONTENT_LENGTH.matcher(response);
            byte[] rest = length.find() ? in.readNBytes(Integer.parseInt(length.group(1)))
                    : new byte[0];
            return response + new String(rest, StandardCharsets.UTF_8);
        }
    }

    private static String chunked(byte[] body) {
        StringBuilder b = new StringBuilder();
        for (int at = 0; at < body.length; at += 8192) {
            int n = Math.min(8192, body.length - at);
            b.append(Integer.toHexString(n)).append("\r\n")
                    .append(new String(body, at, n, StandardCharsets.US_ASCII)).append("\r\n");
        }
        return b.append("0\r\n\r\n").toString();
    }

    @Test
    public void aBodyOverOneMebibyteIsA413WithTheJsonErrorAndChangesNothing()
            throws IOException {
        // A pause request padded past 1 MiB with spaces: valid JSON, too large.
        byte[] padded = (PAUSE.substring(0, PAUSE.length() - 1)
                + " ".repeat(RequestSizeFilter.MAX_BODY_BYTES) + "}")
                .getBytes(StandardCharsets.US_ASCII);
        String path = getBaseUri().getPath() + "intents/pause";
        // Refused on its Content-Length, before the body is read.
        String declared = rawRequest("POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + padded.length
                + "\r\nConnection: close\r\n\r\n", padded, 4096);
        assertTrue(declared, declared.startsWith("HTTP/1.1 413"));
        JsonNode error = mapper.readTree(declared.substring(declared.indexOf("\r\n\r\n") + 4));
        assertEquals(413, error.get("code").asInt());
        assertTrue(error.toString(), error.get("message").asText()
                .contains("over the limit of 1048576 bytes"));
        assertTrue(declared, declared.toLowerCase(Locale.ROOT).contains("server-timing: app;dur="));
        // Refused while being read, when no length was declared.
        String streamed = rawRequest("POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n" + chunked(padded), new byte[0], 0);
        assertTrue(streamed, streamed.startsWith("HTTP/1.1 413"));
        assertTrue(streamed, streamed.contains("\"code\":413"));
        assertTrue(rules.isEmpty());
        assertEquals(0, json(target("intents").request().get()).get("intents").size());
        // Just under the bound is an ordinary request.
        byte[] fits = (PAUSE.substring(0, PAUSE.length() - 1)
                + " ".repeat(RequestSizeFilter.MAX_BODY_BYTES - PAUSE.length()) + "}")
                .getBytes(StandardCharsets.US_ASCII);
        assertEquals(RequestSizeFilter.MAX_BODY_BYTES, fits.length);
        assertEquals(201, post("intents/pause", new String(fits, StandardCharsets.US_ASCII))
                .getStatus());
    }

    @Test
    public void optionsListsTheMethodsAndEveryErrorIsJson() throws IOException {
        Response options = target("intents").request().options();
        assertEquals(200, options.getStatus());
        assertTrue(options.getAllowedMethods().toString(),
                   options.getAllowedMethods().containsAll(List.of("GET", "OPTIONS")));
        // Errors of methods without @Produces, of unknown paths and methods: JSON too.
        for (Response error : List.of(target("intents/0").request().delete(),
                                      target("buffers/s1/b1").request().delete(),
                                      target("nowhere").request().get(),
                                      target("intents").request().put(Entity.json("{}")))) {
            assertTrue(error.getStatus() >= 400);
            assertEquals(MediaType.APPLICATION_JSON_TYPE, error.getMediaType());
            assertEquals(error.getStatus(), json(error).get("code").asInt());
        }
    }

    @Test
    public void bufferQueriesDuringAnAgentOutageAre503NamingTheAgent() throws IOException {
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"b1\",\"state\":\"BUFFERING\"}")
                .getStatus());
        agent.setOccupancy(5);
        assertEquals(5, json(target("buffers/device:s1/b1").request().get())
                .get("occupancyPackets").asInt());
        for (String path : List.of("buffers/device:s1/b1", "buffers/device:s1", "buffers",
                                   "buffers/device:s1/b1/statistics")) {
            for (int i = 0; i < 3; i++) {
                agent.failNext("QueryBuffer", Status.UNAVAILABLE.withDescription("io exception"));
            }
            assertError(target(path).request().get(), 503,
                        "agent s1 is unreachable: io exception");
        }
        assertEquals(5, json(target("buffers/device:s1/b1").request().get())
                .get("occupancyPackets").asInt());
    }

    @Test
    public void pauseThenResumeTowardsAnotherPort() throws IOException {
        Response paused = post("intents/pause", PAUSE);
        assertEquals(201, paused.getStatus());
        JsonNode pause = json(paused);
        assertEquals("INSTALLED", pause.get("state").asText());
        assertEquals("PAUSE", pause.get("type").asText());
        String buffer = pause.get("bufferId").asText();
        assertEquals("BUFFERING", json(target("buffers/device:s1/" + buffer).request().get())
                .get("state").asText());

        Response resumed = post("intents/resume", RESUME);
        assertEquals(201, resumed.getStatus());
        JsonNode resume = json(resumed);
        assertEquals(buffer, resume.get("bufferId").asText());
        assertEquals(3, resume.get("outPort").asInt());
        assertEquals(2, json(target("intents").request().get()).get("intents").size());
        assertEquals("RESUME", json(target("intents/" + resume.get("id").asText()).request().get())
                .get("type").asText());
        assertTrue(rules.contains("+3"));
    }

    @Test
    public void batchesPauseAndResumeManyFlowsOrRefuseAndChangeNothing() throws IOException {
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"many\"}").getStatus());
        String flows = "[{\"inPort\":1,\"filter\":{\"ipProto\":17,\"l4DstPort\":1}},"
                + "{\"inPort\":2,\"filter\":{\"ipProto\":17,\"l4DstPort\":2}}]";
        String pause = "{\"deviceId\":\"device:s1\",\"bufferId\":\"many\",\"flows\":" + flows + "}";
        assertError(post("intents/pause-batch", pause.replace(flows, "{}")), 400, "array");
        assertError(post("intents/pause-batch", pause.replace(flows, "[1]")), 400, "array");
        assertError(post("intents/pause-batch", pause.replace("\"inPort\":2,", "")), 400,
                    "inPort");
        assertError(post("intents/pause-batch", pause.replace("\"l4DstPort\":2}",
                                                               "\"l4DstPort\":2,\"inPort\":9}")),
                    400, "differs");
        assertError(post("intents/pause-batch", pause.replace(flows, "[]")), 400, "1 to 1024");
        assertError(post("intents/pause-batch", pause.replace("\"many\"", "\"none\"")), 404,
                    "none");
        assertTrue(rules.isEmpty());

        Response paused = post("intents/pause-batch", pause);
        assertEquals(201, paused.getStatus());
        JsonNode intents = json(paused).get("intents");
        assertEquals(2, intents.size());
        assertEquals(2, intents.get(1).get("inPort").asInt());
        assertEquals("BUFFERING", json(target("buffers/device:s1/many").request().get())
                .get("state").asText());
        String resume = "{\"deviceId\":\"device:s1\",\"bufferId\":\"many\",\"outPort\":3,"
                + "\"filters\":[{\"ipProto\":17,\"l4DstPort\":1},{\"ipProto\":17,\"l4DstPort\":2}]}";
        assertError(post("intents/resume-batch", resume.replace("\"outPort\":3,", "")), 400,
                    "outPort");
        Response resumed = post("intents/resume-batch", resume);
        assertEquals(201, resumed.getStatus());
        assertEquals("RESUME", json(resumed).get("intents").get(0).get("type").asText());
        assertEquals("FORWARDING", json(target("buffers/device:s1/many").request().get())
                .get("state").asText());
        assertEquals(List.of("+100", "+100", "+3", "+3"), rules);
    }

    @Test
    public void aBufferIsPurgedUpToAPacketOrRefusedWithAReason() throws IOException {
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"fmm\"}").getStatus());
        String purge = "buffers/device:s1/fmm/purge";
        assertError(post(purge, "{\"ipv4Id\":70000,\"l4Checksum\":1}"), 400, "16-bit");
        assertError(post(purge, "{\"l4Checksum\":1}"), 400, "ipv4Id");
        assertError(post(purge, "{\"ipv4Id\":1,\"l4Checksum\":1,\"inclusive\":\"yes\"}"),
                    400, "inclusive");
        assertError(post("buffers/device:s1/nope/purge", "{\"ipv4Id\":1,\"l4Checksum\":1}"),
                    404, "nope");
        assertError(post(purge, "{\"ipv4Id\":1,\"l4Checksum\":1,\"owner\":\"other\"}"), 403,
                    "belongs to");
        JsonNode none = json(post(purge, "{\"ipv4Id\":5,\"l4Checksum\":1}"));
        assertEquals(false, none.get("found").asBoolean());
        agent.setOccupancy(10);
        JsonNode purged = json(post(purge, "{\"ipv4Id\":5,\"l4Checksum\":1,\"inclusive\":true}"));
        assertEquals(true, purged.get("found").asBoolean());
        assertEquals(6, purged.get("purgedPackets").asLong());
    }

    @Test
    public void aMoveIsArmedOnATriggerDisarmedOrRefusedWithAReason() throws IOException {
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"bell\"}").getStatus());
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"held\"}").getStatus());
        String trigger = "buffers/device:s1/bell/trigger";
        assertError(put(trigger, "{\"state\":\"FORWARDING\"}"), 400, "move");
        assertError(put(trigger, "{\"move\":\"held\"}"), 400, "state");
        assertError(put(trigger, "{\"move\":\"held\",\"state\":\"SERVING\"}"), 400,
                    "BUFFERING or FORWARDING");
        assertError(put(trigger, "{\"move\":\"bell\",\"state\":\"FORWARDING\"}"), 400,
                    "its own move");
        assertError(put(trigger, "{\"move\":\"nope\",\"state\":\"FORWARDING\"}"), 404,
                    "nope");
        assertError(put(trigger, "{\"move\":\"held\",\"state\":\"FORWARDING\","
                + "\"owner\":\"other\"}"), 403, "belongs to");
        assertFalse("a refused arm arms nothing", disarmed(trigger));
        JsonNode armed = json(put(trigger, "{\"move\":\"held\",\"state\":\"FORWARDING\"}"));
        assertEquals("held", armed.get("move").asText());
        assertTrue(json(target("buffers/device:s1/bell/statistics").request().get())
                           .get("triggerArmed").asBoolean());
        assertTrue(disarmed(trigger));
        assertFalse(disarmed(trigger));
    }

    @Test
    public void aMoveArmedToPurgeToTheReportSaysWhatItsFireDid() throws IOException {
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"bell\"}").getStatus());
        assertEquals(201, post("buffers/device:s1", "{\"id\":\"held\"}").getStatus());
        String trigger = "buffers/device:s1/bell/trigger";
        assertError(put(trigger, "{\"move\":\"held\",\"state\":\"FORWARDING\","
                + "\"purgeToReport\":\"yes\"}"), 400, "purgeToReport");
        assertFalse("a refused arm arms nothing", disarmed(trigger));
        JsonNode armed = json(put(trigger, "{\"move\":\"held\",\"state\":\"FORWARDING\","
                + "\"purgeToReport\":true}"));
        assertTrue(armed.get("purgeToReport").asBoolean());
        assertTrue(agent.calls.toString(), agent.calls.stream().anyMatch(
                c -> c.startsWith("ArmTrigger ") && c.endsWith(" bell 1 purging held")));
        agent.packetInto("bell");
        JsonNode found = json(target(trigger).request().delete());
        assertFalse(found.get("wasArmed").asBoolean());
        assertEquals("{\"moved\":true,\"reportSync\":\"SYNCED\",\"purgedPackets\":0}",
                     found.get("fire").toString());
        assertEquals("FORWARDING", json(target("buffers/device:s1/held").request().get())
                .get("state").asText());
    }

    private Response put(String path, String body) {
        return target(path).request().put(Entity.entity(body, MediaType.APPLICATION_JSON));
    }

    // DELETE on a trigger: whether a move was still armed.
    private boolean disarmed(String trigger) throws IOException {
        return json(target(trigger).request().delete()).get("wasArmed").asBoolean();
    }

    @Test
    public void buffersAreCreatedMovedInspectedAndRemoved() throws IOException {
        Response created = post("buffers/device:s1",
                                "{\"id\":\"b1\",\"state\":\"BUFFERING\",\"spec\":{\"capacityPackets\":500}}");
        assertEquals(201, created.getStatus());
        assertTrue(created.getLocation().getPath().endsWith("buffers/device:s1/b1"));
        assertEquals(500, json(created).get("spec").get("capacityPackets").asInt());

        Response moved = target("buffers/device:s1/b1/state").request()
                .put(Entity.entity("{\"state\":\"FORWARDING\"}", MediaType.APPLICATION_JSON));
        assertEquals(200, moved.getStatus());
        assertEquals("RX_TX", json(moved).get("mode").asText());

        agent.setOccupancy(4);
        assertEquals(4, json(target("buffers/device:s1/b1/statistics").request().get())
                .get("occupancyPackets").asInt());
        JsonNode events = json(target("buffers/device:s1/b1/events").request().get()).get("events");
        assertEquals("BUFFER_ADDED", events.get(0).get("type").asText());
        assertEquals("BUFFER_STATE_CHANGED", events.get(1).get("type").asText());
        assertEquals(1, json(target("buffers").request().get()).get("buffers").size());
        assertEquals("b1", json(target("devices/device:s1/vports").request().get())
                .get("vports").get(0).get("buffer").asText());

        agent.setOccupancy(0);
        // A discard that is no boolean is refused (JAX-RS alone reads it as false).
        for (String bad : List.of("-662", "yes", "1", "")) {
            assertError(target("buffers/device:s1/b1").queryParam("discard", bad).request()
                                .delete(), 400, "discard must be true or false");
        }
        assertEquals(1, json(target("buffers/device:s1").request().get()).get("buffers").size());
        assertEquals(204, target("buffers/device:s1/b1").queryParam("discard", true).request()
                .delete().getStatus());
        assertEquals(0, json(target("buffers/device:s1").request().get()).get("buffers").size());
    }

    @Test
    public void everyResponseSaysHowLongTheControllerWorkedOnIt() throws IOException {
        for (Response response : List.of(post("intents/pause", PAUSE),
                                         post("intents/pause", "{\"deviceId\":\"device:s1\"}"),
                                         target("buffers/device:s9/b1").request().get(),
                                         target("devices").request().get())) {
            String timing = response.getHeaderString(ServerTimingFilter.HEADER);
            assertTrue(response.getStatus() + " without Server-Timing", timing != null);
            assertTrue(timing, timing.matches("app;dur=\\d+\\.\\d{3}"));
            assertTrue(timing, Double.parseDouble(timing.substring("app;dur=".length())) >= 0);
        }
        assertEquals("app;dur=1.500", ServerTimingFilter.header(1_500_000));
    }

    @Test
    public void theControllerBufferingBaselineHoldsAndReleases() throws IOException {
        String hold = "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"ipv4Src\":\"10.0.0.1/32\"}}";
        assertError(post("baselines/controller-holds", "{\"deviceId\":\"device:s1\","
                + "\"inPort\":1}"), 400, "filter");
        assertError(post("baselines/controller-holds", "{\"deviceId\":\"device:s1\","
                + "\"inPort\":0,\"filter\":{\"all\":true}}"), 400, "inPort");
        assertError(post("baselines/controller-holds/1/release", "{\"port\":2}"), 404, "1");
        assertError(post("baselines/controller-holds/x/release", "{\"port\":2}"), 400, "id");
        assertTrue(rules.isEmpty());

        Response created = post("baselines/controller-holds", hold);
        assertEquals(201, created.getStatus());
        JsonNode body = json(created);
        assertEquals("HOLDING", body.get("state").asText());
        assertEquals(0, body.get("packetInMicros").asLong());
        assertEquals(List.of("+255"), rules);
        assertError(post("baselines/controller-holds", hold), 409, "already held");
        String release = "baselines/controller-holds/" + body.get("id").asText() + "/release";
        assertError(post(release, "{}"), 400, "port");
        assertEquals("RELEASED", json(post(release, "{\"port\":2}")).get("state").asText());
        assertEquals(List.of("+255", "-255"), rules);
        assertError(post(release, "{\"port\":2}"), 409, "released");
        assertEquals(1, json(target("baselines/controller-holds").request().get())
                .get("holds").size());
    }

    @Test
    public void badIntentRequestsAreRefusedAndChangeNothing() throws IOException {
        assertError(post("intents/pause", "{not json"), 400, "malformed JSON");
        assertError(post("intents/pause", "[1,2]"), 400, "JSON object");
        // Nesting that would overflow the stack of a recursive parser.
        assertError(post("intents/pause", "[".repeat(200_000)), 400, "nests deeper than 32");
        assertError(post("intents/pause", "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000)),
                    400, "nests deeper than 32");
        assertError(post("intents/pause", "{\"inPort\":1,\"filter\":{\"all\":true}}"), 400, "deviceId");
        assertError(post("intents/pause", "{\"deviceId\":\"s1\",\"inPort\":1,\"filter\":{\"all\":true}}"), 400,
                    "device id");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"filter\":{\"all\":true}}"), 400,
                    "inPort");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":-1,"
                + "\"filter\":{\"all\":true}}"), 400, "inPort");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1}"), 400,
                    "filter");
        // A filter that names no field would hold every IPv4 packet of the port.
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{}}"), 400, "would match every IPv4 packet");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"ipv4src\":\"10.0.0.1/32\"}}"), 400, "unknown field \"ipv4src\"");
        assertError(post("intents/resume-batch", "{\"deviceId\":\"device:s1\",\"bufferId\":\"b\","
                + "\"outPort\":2,\"filters\":[{}]}"), 400, "would match every IPv4 packet");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"ipv4Src\":\"10.0.0.300/32\"}}"), 400, "ipv4Src");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"l4DstPort\":70000}}"), 400, "l4DstPort");
        // 2^32 is a logical port: refused before a FAILED intent could store it.
        int intents = json(target("intents").request().get()).get("intents").size();
        assertError(post("intents/resume", "{\"deviceId\":\"device:s1\",\"outPort\":2,"
                + "\"filter\":{\"inPort\":4294967296,\"ipProto\":17}}"), 400, "physical port");
        assertError(post("intents/resume-batch", "{\"deviceId\":\"device:s1\",\"bufferId\":\"b\","
                + "\"outPort\":2,\"filters\":[{\"inPort\":4294967296,\"ipProto\":17}]}"), 400,
                    "physical port");
        assertEquals(intents, json(target("intents").request().get()).get("intents").size());
        assertError(post("intents/pause", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"all\":true},\"bufferId\":\"bad id!\"}"), 400, "buffer id");
        assertError(post("intents/pause", "{\"deviceId\":\"device:s9\",\"inPort\":1,"
                + "\"filter\":{\"all\":true}}"), 404, "device:s9");
        assertError(post("intents/resume", RESUME), 404, "");
        assertError(target("intents/abc").request().get(), 400, "intent id");
        assertError(target("intents/99").request().get(), 404, "99");
        assertError(target("intents/99").request().delete(), 404, "");

        // A refused request leaves no intent (ONOS live: some stayed FAILED).
        assertEquals(intents, json(target("intents").request().get()).get("intents").size());
        assertEquals(0, json(target("buffers").request().get()).get("buffers").size());
        assertTrue(rules.isEmpty());
    }

    @Test
    public void badBufferRequestsAreRefusedAndChangeNothing() throws IOException {
        assertError(post("buffers/device:s1", "{}"), 400, "\"id\"");
        assertError(post("buffers/device:s1", "{\"id\":\"b1\",\"state\":\"SLEEPING\"}"), 400,
                    "state");
        assertError(post("buffers/device:s1", "{\"id\":\"b1\",\"state\":\"STORING\"}"), 400, "");
        assertError(post("buffers/device:s1", "{\"id\":\"b1\",\"spec\":{\"capacityPackets\":\"x\"}}"),
                    400, "capacityPackets");
        assertError(post("buffers/device:s1", "{\"id\":\"b1\",\"spec\":{\"queueType\":\"LIFO\"}}"),
                    400, "queueType");
        agent.failNext("Batch", Status.RESOURCE_EXHAUSTED.withDescription("pool full"));
        assertError(post("buffers/device:s1", "{\"id\":\"b1\"}"), 409, "pool full");
        assertEquals(0, json(target("buffers").request().get()).get("buffers").size());

        assertEquals(201, post("buffers/device:s1", "{\"id\":\"b1\",\"owner\":\"app1\"}").getStatus());
        assertError(post("buffers/device:s1", "{\"id\":\"b1\"}"), 409, "already exists");
        assertError(target("buffers/device:s1/b1/state").request()
                            .put(Entity.entity("{\"state\":\"BUFFERING\"}", MediaType.APPLICATION_JSON)),
                    403, "app1");
        assertError(target("buffers/device:s1/b1/state").request()
                            .put(Entity.entity("{}", MediaType.APPLICATION_JSON)), 400, "state");
        assertError(target("buffers/device:s1/b2").request().get(), 404, "b2");
        assertError(target("buffers/device:s1/b2/statistics").request().get(), 404, "b2");
        assertError(target("buffers/device:s1/b2/events").request().get(), 404, "b2");
        // b1 has events: an id that breaks the buffer id rules is refused, not taken for it.
        assertError(target("buffers/device:s1/b%201/events").request().get(), 400, "buffer");
        assertError(target("buffers/device:s1/" + "b".repeat(65) + "/events").request().get(), 400,
                    "buffer");
        assertError(target("buffers/device:s1/b1").request().delete(), 403, "app1");
        assertEquals("FREE", json(target("buffers/device:s1/b1").request().get()).get("state")
                .asText());
    }

    private static final String PLAN = "{\"downlink\":{\"ipv4Dst\":\"10.0.0.10/32\"},"
            + "\"anchor\":{\"in\":\"device:sa/1\",\"toSource\":\"device:sa/2\","
            + "\"toTarget\":\"device:sa/3\"},"
            + "\"source\":{\"in\":\"device:s1/1\",\"x2\":\"device:s1/3\"},"
            + "\"target\":{\"in\":\"device:s2/1\",\"x2\":\"device:s2/3\",\"ue\":\"device:s2/2\"}}";

    @Test
    public void anLmmHandoffWithControllerBufferingPuntsAndReplays() throws IOException {
        String plan = PLAN.replace("}}", "},\"buffering\":\"controller\"}");
        JsonNode started = json(post("apps/lmm/handoffs", plan));
        assertEquals("controller", started.get("plan").get("buffering").asText());
        assertEquals("DETACHED", started.get("state").asText());
        // Target punt (to the CPU port), anchor switch, source punt.
        assertEquals(List.of("+255", "+3", "+255"), rules);
        JsonNode attached = json(post("apps/lmm/handoffs/" + started.get("id").asText()
                                              + "/attach", ""));
        assertEquals("COMPLETED", attached.get("state").asText());
        assertEquals(List.of("+255", "+3", "+255", "-255", "-255"), rules);
        assertEquals(2, json(target("baselines/controller-holds").request().get()).get("holds")
                .size());
    }

    @Test
    public void badLmmRequestsGetA4xxAndStartNothing() throws IOException {
        assertError(post("apps/lmm/handoffs", PLAN.replace("10.0.0.10/32", "10.0.0.0/24")), 400,
                    "/32");
        assertError(post("apps/lmm/handoffs", PLAN.replace("device:s2/2", "s2-port-2")), 400,
                    "target.ue");
        // ONOS's device ids end at 1024 characters, as the document's ConnectPoint says.
        assertError(post("apps/lmm/handoffs", PLAN.replace("device:s2/2", "device:" + "s".repeat(1018) + "/2")),
                    400, "a device id of at most 1024 characters");
        assertError(post("apps/lmm/handoffs", PLAN.replace("device:s2/1", "device:s1/1")), 400,
                    "different devices");
        assertError(post("apps/lmm/handoffs", PLAN.replace("\"anchor\"", "\"anchr\"")), 400,
                    "anchor");
        assertError(post("apps/lmm/handoffs", "{"), 400, "JSON");
        assertError(post("apps/lmm/handoffs", PLAN.replace("}}", "},\"buffering\":\"ctrl\"}")),
                    400, "\"controller\"");
        // A plan whose target has no agent: refused before its first step
        // (no pause rule written and rolled back, no buffer).
        assertError(post("apps/lmm/handoffs", PLAN), 404, "device:s2 has no buffer agent");
        assertEquals(List.of(), rules);
        assertEquals(0, json(target("buffers/device:s1").request().get()).get("buffers").size());
        assertEquals(0, json(target("apps/lmm/handoffs").request().get()).get("handoffs").size());
        assertError(post("apps/lmm/handoffs/7/attach", ""), 404, "handoff 7");
        assertError(post("apps/lmm/handoffs/x/attach", ""), 400, "handoff id");
        assertEquals("bad attach calls change no rule", List.of(), rules);
        assertError(target("apps/lmm/handoffs/7").request().get(), 404, "handoff 7");
    }

    private static final String FMM_PLAN = "{\"downlink\":{\"ipv4Dst\":\"10.0.0.10/32\"},"
            + "\"anchorIn\":\"device:sa/1\",\"cells\":["
            + "{\"anchor\":\"device:sa/2\",\"in\":\"device:s1/1\",\"ue\":\"device:s1/2\"},"
            + "{\"anchor\":\"device:sa/3\",\"in\":\"device:s2/1\",\"ue\":\"device:s2/2\"}],"
            + "\"serving\":\"device:s1\"}";

    @Test
    public void badFmmRequestsGetA4xxAndOpenNothing() throws IOException {
        String sessions = "apps/fmm/sessions";
        assertError(post(sessions, FMM_PLAN.replace("10.0.0.10/32", "10.0.0.0/24")), 400, "/32");
        assertError(post(sessions, FMM_PLAN.replace("device:s1/2", "s1-port-2")), 400,
                    "cells[0].ue");
        assertError(post(sessions, FMM_PLAN.replace("device:s1/2", "device:s3/2")), 400,
                    "different devices");
        assertError(post(sessions, FMM_PLAN.replace("\"serving\":\"device:s1\"",
                                                    "\"serving\":\"device:s7\"")), 400,
                    "not one of the cells");
        assertError(post(sessions, FMM_PLAN.replace("device:sa/3", "device:sa/2")), 400,
                    "two cells");
        assertError(post(sessions, FMM_PLAN.replace("device:sa/3", "device:sa/1")), 400,
                    "back out");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"windowPackets\":0")), 400,
                    "windowPackets");
        assertError(post(sessions, FMM_PLAN.replace("\"cells\"", "\"cels\"")), 400,
                    "\"cells\" is required");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"attachSignal\":{\"ipProto\":17}")),
                    400, "l4DstPort");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"attachSignal\":{\"inPort\":2,"
                + "\"ipProto\":17,\"l4DstPort\":9}")), 400, "in-port");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"attachSignal\":7")), 400,
                    "attachSignal");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"ueReports\":true")), 400,
                    "ueReports needs an attachSignal");
        assertError(post(sessions, FMM_PLAN.replace("}]", "}],\"ueReports\":1,\"attachSignal\":"
                + "{\"ipProto\":17,\"l4DstPort\":9}")), 400, "ueReports");
        assertError(post(sessions, "{"), 400, "JSON");
        assertTrue("a refused plan writes nothing", rules.isEmpty());
        // s2 has no agent: refused before any step (nothing made at s1,
        // the anchor never touched).
        assertError(post(sessions, FMM_PLAN), 404, "device:s2 has no buffer agent");
        assertEquals(List.of(), rules);
        assertEquals(0, json(target("buffers/device:s1").request().get()).get("buffers").size());
        assertEquals(0, json(target(sessions).request().get()).get("sessions").size());
        assertError(post(sessions + "/7/attach", ""), 404, "FMM session 7");
        assertError(post(sessions + "/x/attach", ""), 400, "session id");
        assertError(post(sessions + "/7/handoff", "{\"target\":\"device:s2\"}"), 404,
                    "FMM session 7");
        assertError(post(sessions + "/7/handoff", "{}"), 400, "target");
        assertError(target(sessions + "/7").request().delete(), 404, "FMM session 7");
        assertError(target(sessions + "/7").request().get(), 404, "FMM session 7");
        assertEquals("bad session calls change no rule", List.of(), rules);
    }

    @Test
    public void anNfvMigrationHoldsAndReleasesAFlow() throws IOException {
        Response begun = post("apps/nfv/migrations", "{\"deviceId\":\"device:s1\",\"inPort\":1,"
                + "\"filter\":{\"ipv4Dst\":\"10.0.0.2/32\"}}");
        assertEquals(201, begun.getStatus());
        JsonNode m = json(begun);
        assertEquals("HOLDING", m.get("state").asText());
        assertEquals("BUFFERING", json(target("buffers/device:s1/" + m.get("bufferId").asText())
                                               .request().get()).get("state").asText());
        Response done = post("apps/nfv/migrations/" + m.get("id").asText() + "/complete",
                             "{\"port\":3}");
        assertEquals(200, done.getStatus());
        JsonNode completed = json(done);
        assertEquals("COMPLETED", completed.get("state").asText());
        assertEquals(3, completed.get("releasedTo").asInt());
        assertError(post("apps/nfv/migrations/" + m.get("id").asText() + "/abort",
                         "{\"port\":2}"), 409, "COMPLETED");
        assertError(post("apps/nfv/migrations/x/complete", "{\"port\":2}"), 400, "migration id");
        assertError(post("apps/nfv/migrations/5/complete", "{}"), 400, "port");
        assertError(post("apps/nfv/migrations", "{\"deviceId\":\"device:s1\",\"inPort\":1}"),
                    400, "filter");
        assertEquals(1, json(target("apps/nfv/migrations").request().get()).get("migrations")
                .size());
    }

    @Test
    public void aConnectionlessUploadIsHeldStoredServedAndReleased() throws IOException {
        Response requested = post("apps/cc/uploads", "{\"deviceId\":\"device:s1\","
                + "\"sensorPort\":1,\"filter\":{\"ipv4Src\":\"10.0.0.1/32\"}}");
        assertEquals(201, requested.getStatus());
        JsonNode u = json(requested);
        String id = u.get("id").asText();
        String buffer = "buffers/device:s1/" + u.get("bufferId").asText();
        assertEquals("BUFFERING", json(target(buffer).request().get()).get("state").asText());
        assertError(post("apps/cc/uploads", "{\"deviceId\":\"device:s1\",\"sensorPort\":2,"
                + "\"filter\":{\"ipv4Src\":\"10.0.0.1/32\"}}"), 409, "already has upload " + id);
        agent.setOccupancy(10); // the sensor uploaded ten packets
        assertEquals("STORED", json(post("apps/cc/uploads/" + id + "/stored", "")).get("state")
                .asText());
        assertEquals("STORING", json(target(buffer).request().get()).get("state").asText());
        assertError(post("apps/cc/uploads/" + id + "/stored", ""), 409, "STORED");
        assertEquals("SERVED", json(post("apps/cc/uploads/" + id + "/download", "{\"port\":3}"))
                .get("state").asText());
        agent.setOccupancy(0); // served
        assertEquals("RELEASED", json(post("apps/cc/uploads/" + id + "/release", ""))
                .get("state").asText());
        assertError(target(buffer).request().get(), 404, "");
        assertError(post("apps/cc/uploads/77/stored", ""), 404, "77");
        assertError(post("apps/cc/uploads/x/stored", ""), 400, "upload id");
    }
}
