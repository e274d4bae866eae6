/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;

/**
 * Steering rules read back from table entries are the rules that were
 * written: what a restarted host adopts is what its writer made.
 */
public class SteeringEntryDecoderTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    @Test
    public void everyRuleAWriterMakesReadsBackAsItself() throws Exception {
        P4InfoIndex p4info = P4InfoIndex.read(Paths.get("..", "pipeconf", "p4src", "build",
                                                        "p4info.txt"));
        PiEntryEncoder encoder = new PiEntryEncoder(p4info);
        SteeringEntryDecoder decoder = new SteeringEntryDecoder(p4info);
        FlowFilter full = FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.1/32"))
                .ipv4Dst(IpPrefix.valueOf("10.1.0.0/16")).ipProto(17).l4SrcPort(5000)
                .l4DstPort(9000).build();
        FlowFilter all = FlowFilter.builder().build();
        List<SteeringRule> rules = List.of(
                new SteeringRule(full, false, 1L, 100, 100),
                new SteeringRule(full, true, 100L, 2, 200),
                new SteeringRule(all, false, 3L, 101, 100),
                new SteeringRule(FlowFilter.builder().ipProto(6).build(), false, null, 511, 7),
                SteeringRule.toBuffer(full, 1L, 12, 1, 100),
                SteeringRule.toBuffer(all, null, 12, 0xffffffffL, 100));
        for (SteeringRule rule : rules) {
            assertEquals(Optional.of(rule), decoder.decode(encoder.encode(
                    SteeringFlowRules.toFlowRule(new DefaultApplicationId(1, "t"), S1, rule))));
        }
        // A multicast steering rule is not one a pause or resume makes.
        SteeringRule multicast = SteeringRule.toMulticastGroup(full, 1L, 7, 100);
        assertEquals(Optional.empty(), decoder.decode(encoder.encode(
                SteeringFlowRules.toFlowRule(new DefaultApplicationId(1, "t"), S1, multicast))));
    }
}
