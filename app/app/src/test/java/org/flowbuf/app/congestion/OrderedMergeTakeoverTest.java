/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.flowbuf.app.store.ClusterStorage;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * An ordered flow's merge buffer when the instance that ran it dies: the
 * new master of the flow's source switch (where its switch-over reports go
 * now) takes it over from the merge switch's agent and the Buffer Service's
 * intents, and re-arms it; the flow's removal there takes back what the dead
 * instance made. An instance that does not lead the source takes nothing.
 */
public class OrderedMergeTakeoverTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");
    private static final Instant NOW = Instant.parse("2026-11-30T04:00:00Z");
    private static final DeviceId MERGE = sw(7);

    private final ClusterStorage cluster = new ClusterStorage();
    private final RecordingCcWriter writer = new RecordingCcWriter();
    private final Topo topo = Topo.paper();
    /** The merge switch's agent: buffers by name with their vport mode; the pauses. */
    private final Map<String, VportMode> agent = new TreeMap<>();
    private final Map<Long, FlowBufIntent> pauses = new TreeMap<>();
    private long nextIntent;
    private volatile String sourceMaster = "onos-1";
    private final CongestionManager first = instance("onos-1");
    private final CongestionManager second = instance("onos-2");

    @After
    public void stop() {
        first.shutdown();
        second.shutdown();
    }

    private CongestionManager instance(String node) {
        return new CongestionManager(
                new DefaultApplicationId(1, "test"), hosts(),
                new SuurballePathFinder(() -> topo.links),
                new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), writer,
                Clock.fixed(NOW, ZoneOffset.UTC), s -> { }, null, buffers(), intents(),
                () -> topo.links, () -> 50, new DistributedCcFlowStore(cluster),
                device -> !device.equals(sw(1)) || node.equals(sourceMaster));
    }

    private static CcHosts hosts() {
        return name -> name.equals("h1")
                ? Optional.of(new CcHosts.Endpoint(H1, new ConnectPoint(sw(1),
                                                                        PortNumber.portNumber(1))))
                : name.equals("h2")
                ? Optional.of(new CcHosts.Endpoint(H2, new ConnectPoint(sw(7),
                                                                        PortNumber.portNumber(1))))
                : Optional.empty();
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    synchronized (agent) {
                        switch (method.getName()) {
                            case "getDevices":
                                return Set.of(MERGE);
                            case "createBuffer":
                                agent.put(args[1].toString(), VportMode.RX);
                                return null;
                            case "getBuffer":
                                return Optional.ofNullable(agent.get(args[1].toString()))
                                        .map(m -> buffer(args[1].toString(), m));
                            case "getBuffers":
                                return agent.entrySet().stream()
                                        .map(e -> buffer(e.getKey(), e.getValue()))
                                        .collect(Collectors.toList());
                            case "getVports":
                                return List.of(new Vport(VportId.vportId("vp100"), 100, null,
                                                         VportMode.RX));
                            case "moveBuffer":
                                agent.put(args[1].toString(), args[3].toString()
                                        .equals("FORWARDING") ? VportMode.TX : VportMode.RX);
                                return null;
                            case "removeBuffer":
                                agent.remove(args[1].toString());
                                return null;
                            case "disarm":
                                return Disarmed.stillArmed();
                            case "armMove":
                            case "getStatistics":
                                return method.getName().equals("armMove") ? null
                                        : Optional.empty();
                            default:
                                throw new UnsupportedOperationException(method.getName());
                        }
                    }
                });
    }

    private static Buffer buffer(String id, VportMode mode) {
        return new Buffer(MERGE, BufferId.bufferId(id), MergeBuffer.OWNER, BufferSpec.defaults(),
                          VportId.vportId("vp100"), mode, 0);
    }

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    synchronized (agent) {
                        switch (method.getName()) {
                            case "getIntents":
                                return List.copyOf(pauses.values());
                            case "withdraw":
                                pauses.remove(((IntentId) args[0]).id());
                                return null;
                            case "pause":
                                long id = ++nextIntent;
                                FlowBufIntent i = new FlowBufIntent(
                                        IntentId.intentId(id), FlowBufIntent.Type.PAUSE,
                                        (DeviceId) args[0], (PortNumber) args[1],
                                        (FlowFilter) args[2],
                                        ((Optional<?>) args[3]).map(BufferId.class::cast)
                                                .orElseThrow(),
                                        FlowBufIntent.State.INSTALLED, (String) args[4], null);
                                pauses.put(id, i);
                                return i;
                            default:
                                throw new UnsupportedOperationException(method.getName());
                        }
                    }
                });
    }

    private static CcFlowRequest request() {
        return CcFlowRequest.builder().hosts("h1", "h2").budgetUs(10_000).m(5)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(5000).build())
                .orderedSwitchover(true).build();
    }

    private OrderedSwitchover awaitArmed(CongestionManager instance, long id)
            throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            Optional<OrderedSwitchover> o = instance.flow(id).orElseThrow().ordered();
            if (o.isPresent() && o.get().armed()) {
                return o.get();
            }
            Thread.sleep(1);
        }
        throw new AssertionError("never armed: " + instance.flow(id));
    }

    @Test
    public void theNewMasterOfTheSourceTakesTheMergeBufferOverAndRemovesItWithTheFlow()
            throws InterruptedException {
        LatencyCriticalFlow flow = first.register(request());
        assertTrue(flow.ordered().isPresent());
        Set<String> made = Set.copyOf(agent.keySet());
        assertEquals(1, pauses.size());
        // onos-1 dies; s1's mastership moves to onos-2, which runs no merge buffer yet.
        first.shutdown();
        assertEquals(Optional.empty(), second.flow(flow.id()).orElseThrow().ordered());
        assertEquals(0, second.takeOver(sw(1)));
        sourceMaster = "onos-2";

        assertEquals(1, second.takeOver(sw(1)));
        assertEquals(new OrderedSwitchover(MERGE, 0, 0, true), awaitArmed(second, flow.id()));
        assertEquals(made, agent.keySet());
        assertEquals(0, second.takeOver(sw(1)));

        second.remove(flow.id());
        assertEquals(Map.of(), pauses);
        assertEquals(Map.of(), agent);
    }
}
