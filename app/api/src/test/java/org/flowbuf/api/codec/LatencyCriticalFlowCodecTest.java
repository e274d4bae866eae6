/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.codec.CodecContext;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

/**
 * A latency-critical flow's JSON: its paths also as switch lists (what the
 * GUIs draw), and a switch-over count that goes on past the switch-overs kept.
 */
public class LatencyCriticalFlowCodecTest {

    private final CodecContext context = new FlowBufCodecsContext();

    private static CcPath path(String... switches) {
        return new CcPath(List.of(switches).stream().map(s -> new CcHop(
                DeviceId.deviceId("device:" + s), PortNumber.portNumber(2)))
                                  .collect(java.util.stream.Collectors.toList()));
    }

    private static LatencyCriticalFlow flow() {
        return new LatencyCriticalFlow(
                3, 0, CcFlowRequest.builder().hosts("h1", "h2").budgetUs(1000)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.7.2/32")).build())
                .build(), path("s1", "s2", "s4"), path("s1", "s3", "s4"), Map.of(), List.of());
    }

    private static LatencyCriticalFlow switched(LatencyCriticalFlow f, long queueUs) {
        return f.switchedOver(f.backup().orElseThrow(), f.primary(), Map.of(), new SwitchOver(
                DeviceId.deviceId("device:s1"), queueUs, 40, Instant.EPOCH, true));
    }

    private ObjectNode encode(LatencyCriticalFlow f) {
        return context.codec(LatencyCriticalFlow.class).encode(f, context);
    }

    @Test
    public void pathsAreAlsoListedAsSwitches() {
        ObjectNode json = encode(flow());
        assertEquals("[\"device:s1\",\"device:s2\",\"device:s4\"]",
                     json.get("primaryDevices").toString());
        assertEquals("[\"device:s1\",\"device:s3\",\"device:s4\"]",
                     json.get("backupDevices").toString());
        assertEquals(0, json.get("switchOverCount").asLong());
        ObjectNode moved = encode(switched(flow(), 900));
        assertEquals("[\"device:s1\",\"device:s3\",\"device:s4\"]",
                     moved.get("primaryDevices").toString());
        assertEquals("[\"device:s1\",\"device:s2\",\"device:s4\"]",
                     moved.get("backupDevices").toString());
        LatencyCriticalFlow single = new LatencyCriticalFlow(
                4, 1, flow().request(), path("s1", "s2", "s4"), null, Map.of(), List.of());
        assertFalse(encode(single).has("backupDevices"));
    }

    @Test
    public void theCountGoesOnPastTheSwitchOversKept() {
        LatencyCriticalFlow f = flow();
        int total = LatencyCriticalFlow.KEPT_SWITCH_OVERS + 5;
        for (int i = 1; i <= total; i++) {
            f = switched(f, i);
        }
        ObjectNode json = encode(f);
        assertEquals(total, json.get("switchOverCount").asLong());
        assertEquals(LatencyCriticalFlow.KEPT_SWITCH_OVERS, json.get("switchOvers").size());
        assertEquals(total, json.get("lastDelays").get("queueUs").asLong());
    }
}
