/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfService;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.ServiceDirectory;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onosproject.codec.CodecService;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.host.HostService;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.ui.UiConnection;
import org.onosproject.ui.model.topo.UiTopoLayout;
import org.onosproject.ui.topo.PropertyPanel;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Requests of the overlay → the messages it sends: the model in the REST
 * JSON, badges per device, the paused flow's host highlighted, the picked
 * latency-critical flow's paths and details, errors.
 */
public class FlowBufTopoMessageHandlerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final HostId H1 = HostId.hostId(MacAddress.valueOf("00:00:00:00:00:01"),
                                                   VlanId.NONE);
    private static final Buffer HOLDING = new Buffer(
            S1, BufferId.bufferId("auto-1"), "org.flowbuf.rest",
            BufferSpec.builder().capacityPackets(100).build(), VportId.vportId("vp100"),
            VportMode.RX, 90);
    private static final FlowBufIntent PAUSED = new FlowBufIntent(
            IntentId.intentId(1), FlowBufIntent.Type.PAUSE, S1, PortNumber.portNumber(1),
            FlowFilter.builder().build(), HOLDING.id(), FlowBufIntent.State.INSTALLED,
            "org.flowbuf.rest", null);

    private final List<ObjectNode> sent = new CopyOnWriteArrayList<>();
    private final List<String> calls = new ArrayList<>();
    private final Map<String, Object> answers = new HashMap<>();
    private final FlowBufTopoMessageHandler handler = new FlowBufTopoMessageHandler();
    private final ObjectMapper mapper = new ObjectMapper();

    private <T> T fake(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    Object answer = answers.get(method.getName());
                    if (answer instanceof RuntimeException) {
                        throw (RuntimeException) answer;
                    }
                    return answer;
                }));
    }

    @Before
    public void setUp() {
        answers.put("getDevices", Set.of(S1));
        answers.put("getBuffers", List.of(HOLDING));
        answers.put("getIntents", List.of(PAUSED));
        answers.put("deviceSummaries", List.of(new UpfDeviceSummary(S1, 1200, 3)));
        answers.put("flows", List.of(CcFlows.flow()));
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        Map<Class<?>, Object> services = Map.of(
                BufferService.class, fake(BufferService.class),
                FlowBufIntentService.class, fake(FlowBufIntentService.class),
                UpfService.class, fake(UpfService.class),
                CongestionService.class, fake(CongestionService.class),
                LinkService.class, new LinkServiceAdapter() {
                    @Override
                    public Set<Link> getEgressLinks(ConnectPoint point) {
                        return Set.copyOf(CcFlows.egress(point));
                    }
                },
                CodecService.class, codecs,
                HostService.class, new HostServiceAdapter() {
                    @Override
                    public Set<Host> getConnectedHosts(ConnectPoint point) {
                        return point.equals(new ConnectPoint(S1, PortNumber.portNumber(1)))
                                ? Set.of(new DefaultHost(ProviderId.NONE, H1, H1.mac(), VlanId.NONE,
                                                         new HostLocation(point, 0), Set.of()))
                                : Set.of();
                    }
                });
        handler.init(new UiConnection() {
            @Override
            public String userName() {
                return "test";
            }

            @Override
            public UiTopoLayout currentLayout() {
                return null;
            }

            @Override
            public void setCurrentLayout(UiTopoLayout layout) {
            }

            @Override
            public String currentView() {
                return "topo";
            }

            @Override
            public void setCurrentView(String view) {
            }

            @Override
            public void sendMessage(ObjectNode message) {
                sent.add(message);
            }

            @Override
            public void sendMessage(String type, ObjectNode payload) {
                sent.add(new ObjectMapper().createObjectNode().put("event", type)
                                 .set("payload", payload));
            }
        }, new ServiceDirectory() {
            @Override
            public <T> T get(Class<T> type) {
                return type.cast(services.get(type));
            }
        });
    }

    @After
    public void tearDown() {
        handler.destroy();
    }

    private void request(String type, ObjectNode payload) {
        handler.process(mapper.createObjectNode().put("event", type).set("payload", payload));
    }

    private JsonNode message(String type) {
        return sent.stream().filter(m -> type.equals(m.path("event").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + sent))
                .get("payload");
    }

    private boolean sentAny(String type) {
        return sent.stream().anyMatch(m -> type.equals(m.path("event").asText()));
    }

    /** Link id -> CSS classes of the highlights message sent. */
    private Map<String, String> linkClasses() {
        Map<String, String> css = new java.util.TreeMap<>();
        message(FlowBufTopoMessageHandler.HIGHLIGHTS).get("links")
                .forEach(l -> css.put(l.get("id").asText(), l.get("css").asText()));
        return css;
    }

    private String detail(String label) {
        JsonNode details = message(FlowBufTopoMessageHandler.DETAILS);
        return details.get("propValues").get(label).asText();
    }

    @Test
    public void aModelRequestSendsTheRestJsonAndTheHighlights() {
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        JsonNode model = message(FlowBufTopoMessageHandler.MODEL);
        assertEquals("auto-1", model.get("buffers").get(0).get("id").asText());
        assertEquals("BUFFERING", model.get("buffers").get(0).get("state").asText());
        assertEquals("PAUSE", model.get("intents").get(0).get("type").asText());
        assertEquals(mapper.createArrayNode().add(mapper.createObjectNode().put("deviceId", "device:s1")
                .put("sessions", 1200).put("pausedDownlinks", 3)), model.get("upf"));
        JsonNode highlights = message(FlowBufTopoMessageHandler.HIGHLIGHTS);
        JsonNode device = highlights.get("devices").get(0);
        assertEquals("device:s1", device.get("id").asText());
        assertEquals("1", device.get("badge").get("txt").asText());
        assertEquals("w", device.get("badge").get("status").asText()); // 90% full warns
        assertTrue(device.get("badge").get("msg").asText(),
                   device.get("badge").get("msg").asText().endsWith("UPF: 1200 sessions, 3 downlinks paused"));
        JsonNode host = highlights.get("hosts").get(0);
        assertEquals(H1.toString(), host.get("id").asText());
        assertTrue(host.get("badge").get("msg").asText().contains("auto-1"));
    }

    @Test
    public void aPauseFromThePanelCallsTheServiceAndRefreshes() {
        ObjectNode payload = mapper.createObjectNode().put("deviceId", "device:s1").put("port", 1);
        payload.putObject("filter").put("ipv4Src", "10.0.0.1/32");
        request(FlowBufTopoMessageHandler.PAUSE, payload);
        assertTrue(calls.toString(), calls.contains("pause"));
        message(FlowBufTopoMessageHandler.MODEL);
    }

    @Test
    public void aRefusedOrMalformedRequestSendsAnErrorAndCallsNothing() {
        answers.put("resume", FlowBufException.notFound("no paused flow"));
        ObjectNode resume = mapper.createObjectNode().put("deviceId", "device:s1").put("port", 2);
        resume.putObject("filter").put("all", true);
        request(FlowBufTopoMessageHandler.RESUME, resume);
        assertEquals("no paused flow", message(FlowBufTopoMessageHandler.ERROR)
                .get("message").asText());
        sent.clear();
        calls.clear();
        // A pause of every IPv4 packet of the port must say so.
        request(FlowBufTopoMessageHandler.PAUSE,
                mapper.createObjectNode().put("deviceId", "device:s1").put("port", 1));
        assertTrue(message(FlowBufTopoMessageHandler.ERROR).get("message").asText()
                           .contains("\"all\": true"));
        assertTrue(calls.toString(), calls.isEmpty());
        sent.clear();
        calls.clear();
        request(FlowBufTopoMessageHandler.PAUSE, mapper.createObjectNode().put("port", 1));
        assertTrue(message(FlowBufTopoMessageHandler.ERROR).get("message").asText()
                           .contains("deviceId"));
        assertTrue(calls.toString(), !calls.contains("pause"));
    }

    @Test
    public void startedOverlaysAreRefreshedUntilStopped() throws InterruptedException {
        request(FlowBufTopoMessageHandler.START, mapper.createObjectNode());
        long deadline = System.currentTimeMillis() + 3000;
        while (sent.stream().noneMatch(m -> "flowbufModel".equals(m.path("event").asText()))
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        message(FlowBufTopoMessageHandler.MODEL);
        request(FlowBufTopoMessageHandler.STOP, mapper.createObjectNode());
        Thread.sleep(200); // a refresh already running finishes its messages
        int after = sent.size();
        Thread.sleep(FlowBufTopoMessageHandler.REFRESH_MS + 300);
        assertEquals(after, sent.size());
    }

    @Test
    public void thePickedFlowsPathsAreHighlightedAndSwappedAfterASwitchOver() {
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        JsonNode model = message(FlowBufTopoMessageHandler.MODEL);
        assertEquals(List.of("device:s1", "device:s2", "device:s4"), List.of(
                mapper.convertValue(model.get("congestion").get(0).get("primaryDevices"),
                                    String[].class)));
        assertTrue(linkClasses().isEmpty()); // nothing picked yet
        assertFalse(sentAny(FlowBufTopoMessageHandler.DETAILS));

        sent.clear();
        request(FlowBufTopoMessageHandler.CC_SELECT, mapper.createObjectNode().put("id", 7));
        Map<String, String> css = linkClasses();
        assertTrue(css.toString(), css.get("device:s1/2-device:s2/1").contains("flowbuf-cc-primary"));
        assertTrue(css.toString(), css.get("device:s1/3-device:s3/1").contains("flowbuf-cc-backup"));
        assertEquals("Latency-critical flow 7", message(FlowBufTopoMessageHandler.DETAILS)
                .get("title").asText());
        assertEquals("0", detail("flowbuf-cc-switchovers"));

        // The service reports a switch-over: the next refresh swaps the classes
        // and sends the panel again, once.
        answers.put("flows", List.of(CcFlows.switchedOver(CcFlows.flow())));
        sent.clear();
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        css = linkClasses();
        assertTrue(css.toString(), css.get("device:s1/2-device:s2/1").contains("flowbuf-cc-backup"));
        assertTrue(css.toString(), css.get("device:s1/3-device:s3/1").contains("flowbuf-cc-primary"));
        assertEquals("1", detail("flowbuf-cc-switchovers"));
        assertTrue(detail("flowbuf-cc-last-delays").startsWith("queue 912 "));
        sent.clear();
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        assertFalse(sentAny(FlowBufTopoMessageHandler.DETAILS));

        // Picking none clears the paths.
        sent.clear();
        request(FlowBufTopoMessageHandler.CC_SELECT, mapper.createObjectNode());
        assertTrue(linkClasses().isEmpty());
    }

    @Test
    public void pickingAnUnknownFlowIsRefusedAndKeepsThePickedOne() {
        request(FlowBufTopoMessageHandler.CC_SELECT, mapper.createObjectNode().put("id", 7));
        sent.clear();
        request(FlowBufTopoMessageHandler.CC_SELECT, mapper.createObjectNode().put("id", 8));
        assertEquals("no latency-critical flow 8", message(FlowBufTopoMessageHandler.ERROR)
                .get("message").asText());
        assertFalse(sentAny(FlowBufTopoMessageHandler.HIGHLIGHTS));
        request(FlowBufTopoMessageHandler.CC_SELECT, mapper.createObjectNode().put("id", "x"));
        assertEquals(2, sent.stream().filter(m -> "flowbufError".equals(m.path("event").asText()))
                .count());
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        assertEquals(4, linkClasses().size());
        // A flow removed since it was picked is no longer drawn.
        answers.put("flows", List.of());
        sent.clear();
        request(FlowBufTopoMessageHandler.MODEL_REQUEST, mapper.createObjectNode());
        assertTrue(linkClasses().isEmpty());
    }

    @Test
    public void theDetailsPanelListsTheDevicesBuffersWithActions() {
        PropertyPanel pp = new PropertyPanel("device:s1", "switch");
        FlowBufTopoOverlay.describe(pp, fake(BufferService.class), S1);
        assertTrue(pp.properties().stream().anyMatch(
                p -> p.key().equals("flowbuf-auto-1") && p.value().contains("BUFFERING")
                        && p.value().contains("90%")));
        assertEquals(List.of(FlowBufTopoOverlay.PAUSE_BUTTON, FlowBufTopoOverlay.RESUME_BUTTON),
                     pp.buttons());
    }
}
