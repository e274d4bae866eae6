/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.flowbuf.app.store.ClusterStorage;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.flowbuf.app.congestion.Topo.sw;
import static org.flowbuf.pipeconf.CcP4Names.FLOWS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Congestion avoidance on a cluster: two instances on one cluster's storage
 * (as ONOS's instances share its distributed primitives) over the same
 * switches. Every instance lists every flow; only the master of a flow's
 * source switch changes it, another refuses with a reason and changes
 * nothing; when mastership moves (the master died), the new master switches
 * the flow over and removes it; flow indexes are claimed once cluster-wide.
 * The cluster's serializer keeps a record whole.
 */
public class CongestionClusterTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");
    private static final Instant NOW = Instant.parse("2026-11-29T15:00:00Z");
    private static final String A = "onos-1";
    private static final String B = "onos-2";

    private final ClusterStorage cluster = new ClusterStorage();
    private final RecordingCcWriter writer = new RecordingCcWriter();
    /** Every switch's master; s1 (h1's) is onos-1's until it dies. */
    private final Map<DeviceId, String> masters = new ConcurrentHashMap<>();
    private Topo topo;
    private CongestionManager first;
    private CongestionManager second;

    @Before
    public void setUp() {
        topo = Topo.paper();
        for (int n = 1; n <= 7; n++) {
            masters.put(sw(n), n == 1 ? A : B);
        }
        first = instance(A);
        second = instance(B);
    }

    private CongestionManager instance(String node) {
        return new CongestionManager(new DefaultApplicationId(1, "test"), hosts(),
                                     new SuurballePathFinder(() -> topo.links),
                                     new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)),
                                     writer, Clock.fixed(NOW, ZoneOffset.UTC),
                                     new DistributedCcFlowStore(cluster),
                                     device -> node.equals(masters.get(device)));
    }

    private static CcHosts hosts() {
        return name -> name.equals("h1") ? Optional.of(new CcHosts.Endpoint(H1, cp(sw(1))))
                : name.equals("h2") ? Optional.of(new CcHosts.Endpoint(H2, cp(sw(7))))
                : Optional.empty();
    }

    private static ConnectPoint cp(DeviceId d) {
        return new ConnectPoint(d, PortNumber.portNumber(1));
    }

    private static CcFlowRequest.Builder request(String from, String to, int port) {
        return CcFlowRequest.builder().hosts(from, to).budgetUs(10_000).m(5)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(port).build());
    }

    private static List<Long> ids(CongestionManager instance) {
        return instance.flows().stream().map(LatencyCriticalFlow::id)
                .collect(Collectors.toList());
    }

    @Test
    public void everyInstanceListsAFlowAndOnlyTheMasterOfItsSourceChangesIt() {
        LatencyCriticalFlow flow = first.register(request("h1", "h2", 5000).build());
        assertEquals(List.of(flow.id()), ids(second));
        assertEquals(flow.primary(), second.flow(flow.id()).orElseThrow().primary());
        assertEquals(flow.backup(), second.flow(flow.id()).orElseThrow().backup());
        Map<DeviceId, Map<String, FlowRule>> written =
                copy(writer.entries);

        assertReason(() -> second.register(request("h1", "h2", 5001).build()),
                     FlowBufException.Reason.UNAVAILABLE);
        assertReason(() -> second.remove(flow.id()), FlowBufException.Reason.UNAVAILABLE);
        // A report that reached the wrong instance changes nothing either.
        second.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        assertEquals(List.of(flow.id()), ids(first));
        assertEquals(List.of(), first.flow(flow.id()).orElseThrow().switchOvers());
        assertEquals(written, copy(writer.entries));
        try {
            second.remove(flow.id());
            fail("a backup instance must refuse");
        } catch (FlowBufException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not the master of " + sw(1)));
        }
    }

    @Test
    public void theNewMasterOfTheSourceTakesAFlowOverWhenTheOldOneDies() {
        LatencyCriticalFlow flow = first.register(request("h1", "h2", 5000).build());
        masters.put(sw(1), B);  // onos-1 died: s1's mastership moved to onos-2
        first = null;

        second.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        LatencyCriticalFlow moved = second.flow(flow.id()).orElseThrow();
        assertEquals(flow.backup().orElseThrow(), moved.primary());
        assertEquals(1, moved.switchOvers().size());
        assertEquals(SwitchOver.Cause.DIGEST, moved.switchOvers().get(0).cause());
        // Its entries on the switches are those of its new layout, written by onos-2.
        assertEquals(Set.copyOf(second.entries(sw(1))),
                     Set.copyOf(writer.entries.get(sw(1)).values()));

        second.remove(flow.id());
        assertEquals(List.of(), ids(second));
        assertEquals(0, writer.count(sw(1), FLOWS));
        // Its index is free cluster-wide: the next flow takes it.
        assertEquals(flow.index(), second.register(request("h1", "h2", 5001).build()).index());
    }

    @Test
    public void flowIndexesAndIdsAreClaimedOnceAcrossInstances() {
        // onos-1 leads s1 (h1's), onos-2 s7 (h2's): each registers a flow from its switch.
        LatencyCriticalFlow one = first.register(request("h1", "h2", 5000).build());
        LatencyCriticalFlow two = second.register(request("h2", "h1", 5001).build());
        assertNotEquals(one.index(), two.index());
        assertNotEquals(one.id(), two.id());
        assertEquals(List.of(one.id(), two.id()), ids(first));
        assertEquals(ids(first), ids(second));
        // The same 5-tuple is refused on another instance too.
        assertReason(() -> second.register(request("h2", "h1", 5000).build()),
                     FlowBufException.Reason.CONFLICT);
    }

    @Test
    public void aRecordSurvivesTheClustersSerializer() {
        LatencyCriticalFlow flow = first.register(request("h1", "h2", 5000).build());
        first.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
        CcRecord kept = new DistributedCcFlowStore(cluster).get(flow.id()).orElseThrow();
        CcRecord back = (CcRecord) CcFlowCodec.SERIALIZER.decode(
                CcFlowCodec.SERIALIZER.encode(kept));

        LatencyCriticalFlow a = kept.flow();
        LatencyCriticalFlow b = back.flow();
        assertEquals(a.id(), b.id());
        assertEquals(a.index(), b.index());
        assertEquals(a.request().filter(), b.request().filter());
        assertEquals(a.request().srcHost(), b.request().srcHost());
        assertEquals(a.request().budgetUs(), b.request().budgetUs());
        assertEquals(a.request().mode(), b.request().mode());
        assertEquals(a.primary(), b.primary());
        assertEquals(a.backup(), b.backup());
        assertEquals(a.thresholds(), b.thresholds());
        assertEquals(1, b.switchOvers().size());
        assertEquals(a.switchOvers().get(0).time(), b.switchOvers().get(0).time());
        assertEquals(a.switchOvers().get(0).device(), b.switchOvers().get(0).device());
        assertEquals(a.switchOvers().get(0).cause(), b.switchOvers().get(0).cause());
        // The layout whole: every entry it writes on every switch, generation and slot included.
        CcInstaller installer = new CcInstaller(new CcRules(new DefaultApplicationId(1, "test")),
                                                new RecordingCcWriter());
        for (int n = 1; n <= 7; n++) {
            assertEquals(installer.entries(kept.layout(), sw(n)),
                         installer.entries(back.layout(), sw(n)));
        }
        assertEquals(kept.layout().slot(), back.layout().slot());
        assertEquals(kept.layout().generation(), back.layout().generation());
    }

    private static Map<DeviceId, Map<String, FlowRule>> copy(
            Map<DeviceId, Map<String, FlowRule>> entries) {
        return entries.entrySet().stream().collect(Collectors.toMap(
                Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }
}
