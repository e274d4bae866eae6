/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.app.Race;
import org.flowbuf.app.southbound.StatefulAgent;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.PortNumber;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.flowbuf.app.congestion.Topo.sw;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Latency-critical flows of a few 5-tuples registered, switched over by
 * their digest and removed from many threads at once: one registration per
 * 5-tuple at a time (the others refused, CONFLICT), flow indexes never
 * shared, no entry written twice or removed twice (the recording switch
 * fails the test on either), and afterwards no flow and no entry left.
 */
public class CongestionConcurrencyTest {

    private static final MacAddress H1 = MacAddress.valueOf("00:00:00:00:00:01");
    private static final MacAddress H2 = MacAddress.valueOf("00:00:00:00:00:02");
    private static final int THREADS = 200;
    private static final int FLOWS = 4;

    private final Topo topo = Topo.paper().cable(1, 2).cable(2, 8).cable(8, 9).cable(9, 7);
    private final RecordingCcWriter device = new RecordingCcWriter();
    private final CongestionManager service = new CongestionManager(
            new DefaultApplicationId(1, "test"), hosts(), new SuurballePathFinder(() -> topo.links),
            new ThresholdPolicy(5, (d, p) -> new IdleDelay(10, 40)), slow(device),
            Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC), e -> { });

    // Writes take up to half a millisecond and apply one at a time.
    private static CcWriter slow(RecordingCcWriter device) {
        return (deviceId, write) -> {
            StatefulAgent.pause(0, 500);
            synchronized (device) {
                device.write(deviceId, write);
            }
        };
    }

    private static CcHosts hosts() {
        return name -> name.equals("h1")
                ? Optional.of(new CcHosts.Endpoint(H1, new ConnectPoint(sw(1), PortNumber.portNumber(1))))
                : Optional.of(new CcHosts.Endpoint(H2, new ConnectPoint(sw(7), PortNumber.portNumber(1))));
    }

    private static CcFlowRequest request(int flow) {
        return CcFlowRequest.builder().hosts("h1", "h2").budgetUs(10_000).m(5)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(5000 + flow).build())
                .build();
    }

    @Test
    public void flowsRegisteredSwitchedOverAndRemovedFromManyThreads() {
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            LatencyCriticalFlow flow = service.register(request(i % FLOWS));
            service.switchedOver(sw(1), new CcDigest(flow.index(), 1, 1, 900, 30));
            LatencyCriticalFlow moved = service.flow(flow.id()).orElseThrow();
            service.remove(flow.id());
            return moved;
        });
        int served = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                served++;
                assertEquals("switched over once: " + r, 1,
                             ((LatencyCriticalFlow) r.value).switchOvers().size());
            } else if (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("same 5-tuple")) {
                fail("unexpected refusal: " + r);
            }
        }
        assertTrue("no flow was served", served > 0);
        assertEquals("flows left", 0, service.flows().size());
        assertEquals("entries left", Map.of(), device.entries);
    }

    @Test
    public void flowsOfDistinctTuplesTakeDistinctIndexes() {
        int flows = 64;
        List<Race.Reply> replies = Race.run(flows, i -> () -> service.register(request(i)));
        replies.forEach(r -> assertTrue("refused: " + r, r.ok()));
        assertEquals("distinct indexes", flows, service.flows().stream()
                .map(LatencyCriticalFlow::index).distinct().count());
    }
}
