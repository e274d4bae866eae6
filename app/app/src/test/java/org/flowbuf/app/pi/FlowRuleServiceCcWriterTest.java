/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.congestion.CcRules;
import org.flowbuf.app.congestion.CcWrite;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/** The ONOS writer of the congestion service's entries. */
public class FlowRuleServiceCcWriterTest {

    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.app");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final CcRules RULES = new CcRules(APP);

    /** Answers batches as told (the first `accept` succeed) and records each batch. */
    private static final class Rules extends FlowRuleServiceAdapter {
        private final List<List<String>> batches = new ArrayList<>();
        private int accept;

        Rules(int accept) {
            this.accept = accept;
        }

        @Override
        public void apply(FlowRuleOperations ops) {
            List<String> batch = new ArrayList<>();
            ops.stages().forEach(stage -> stage.forEach(op -> batch.add(describe(op))));
            batches.add(batch);
            if (accept-- > 0) {
                ops.callback().onSuccess(ops);
            } else {
                ops.callback().onError(ops);
            }
        }

        private static String describe(FlowRuleOperation op) {
            return op.type() + " " + op.rule().table();
        }
    }

    private static FlowRule track(int index) {
        return RULES.track(S1, FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0." + index
                + "/32")).build(), index, 7);
    }

    private static CcWrite write() {
        CcWrite w = new CcWrite();
        w.removes().add(track(1));
        w.inserts().add(track(2));
        w.modifies().add(RULES.path(S1, 2, 0, PortNumber.portNumber(3),
                                    MacAddress.valueOf("00:00:00:00:00:02")));
        return w;
    }

    @Test
    public void removalsGoFirstThenInsertsThenModifications() {
        Rules rules = new Rules(3);
        new FlowRuleServiceCcWriter(rules, Duration.ofSeconds(1)).write(S1, write());
        assertEquals(List.of(List.of("REMOVE IngressPipeImpl.cc_ingress.cc_flows"),
                             List.of("ADD IngressPipeImpl.cc_ingress.cc_flows"),
                             List.of("MODIFY IngressPipeImpl.cc_ingress.cc_paths")),
                     rules.batches);
    }

    @Test
    public void aRefusedModificationIsReportedAndTheInsertsTakenBack() {
        Rules rules = new Rules(2);
        try {
            new FlowRuleServiceCcWriter(rules, Duration.ofSeconds(1)).write(S1, write());
            fail("a refused batch must fail the write");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertEquals(4, rules.batches.size());
        assertEquals(List.of("REMOVE IngressPipeImpl.cc_ingress.cc_flows"), rules.batches.get(3));
    }

    @Test
    public void nothingToWriteWritesNothing() {
        Rules rules = new Rules(0);
        new FlowRuleServiceCcWriter(rules, Duration.ofSeconds(1)).write(S1, new CcWrite());
        assertEquals(List.of(), rules.batches.stream().flatMap(List::stream)
                .collect(Collectors.toList()));
    }
}
