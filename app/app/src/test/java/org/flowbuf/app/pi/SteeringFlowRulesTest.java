/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.pipeconf.FlowBufP4Names;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Steering rules become flow_steering entries with the right masks.
 */
public class SteeringFlowRulesTest {

    private static final ApplicationId APP = new DefaultApplicationId(7, "org.flowbuf.app");
    private static final DeviceId DEVICE = DeviceId.deviceId("device:s1");

    private static PiCriterion criterion(FlowRule rule) {
        return (PiCriterion) rule.selector().getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
    }

    @Test
    public void pauseRuleMatchesPrefixesAndPortsNotFromVport() {
        FlowFilter filter = FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.1.0/24"))
                .ipv4Dst(IpPrefix.valueOf("10.0.2.7/32")).ipProto(17).l4DstPort(5001).build();
        FlowRule rule = SteeringFlowRules.toFlowRule(APP, DEVICE,
                                                     new SteeringRule(filter, false, 3L, 10, 100));
        assertEquals(FlowBufP4Names.FLOW_STEERING, rule.table());
        assertEquals(100, rule.priority());
        PiCriterion expected = PiCriterion.builder()
                .matchTernary(FlowBufP4Names.FROM_VPORT, 0L, 1L)
                .matchTernary(FlowBufP4Names.INGRESS_PORT, 3L, 0x1ffL)
                .matchTernary(FlowBufP4Names.IPV4_SRC, 0x0a000100L, 0xffffff00L)
                .matchTernary(FlowBufP4Names.IPV4_DST, 0x0a000207L, 0xffffffffL)
                .matchTernary(FlowBufP4Names.IP_PROTO, 17L, 0xffL)
                .matchTernary(FlowBufP4Names.L4_DST_PORT, 5001L, 0xffffL)
                .build();
        assertEquals("wildcard fields are left out, prefixes become masks", expected,
                     criterion(rule));
        PiAction action = (PiAction) ((PiInstruction) rule.treatment().allInstructions().get(0))
                .action();
        assertEquals(FlowBufP4Names.STEER_TO_PORT, action.id());
        assertEquals(new PiActionParam(FlowBufP4Names.PORT, 10L),
                     action.parameters().iterator().next());
    }

    @Test
    public void resumeRuleMatchesReplayedPacketsOnAnyPort() {
        FlowRule rule = SteeringFlowRules.toFlowRule(
                APP, DEVICE, new SteeringRule(FlowFilter.builder().build(), true, null, 4, 200));
        PiCriterion expected = PiCriterion.builder()
                .matchTernary(FlowBufP4Names.FROM_VPORT, 1L, 1L).build();
        assertEquals(expected, criterion(rule));
    }

    @Test
    public void sameRuleGivesEqualFlowRules() {
        SteeringRule rule = new SteeringRule(FlowFilter.builder().ipProto(6).build(), false, 1L,
                                             9, 100);
        assertTrue(SteeringFlowRules.toFlowRule(APP, DEVICE, rule)
                           .exactMatch(SteeringFlowRules.toFlowRule(APP, DEVICE, rule)));
    }

    @Test
    public void ruleIntoALogicalVportPushesItsTag() {
        FlowFilter filter = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.45.0.7/32")).build();
        FlowRule rule = SteeringFlowRules.toFlowRule(
                APP, DEVICE, SteeringRule.toBuffer(filter, 3L, 12, 0xfffffffeL, 100));
        PiAction expected = PiAction.builder().withId(FlowBufP4Names.STEER_TO_BUFFER)
                .withParameter(new PiActionParam(FlowBufP4Names.PORT, 12L))
                .withParameter(new PiActionParam(FlowBufP4Names.TAG, 0xfffffffeL)).build();
        assertEquals(expected, action(rule));
        assertEquals(PiCriterion.builder()
                             .matchTernary(FlowBufP4Names.FROM_VPORT, 0L, 1L)
                             .matchTernary(FlowBufP4Names.INGRESS_PORT, 3L, 0x1ffL)
                             .matchTernary(FlowBufP4Names.IPV4_DST, 0x0a2d0007L, 0xffffffffL)
                             .build(), criterion(rule));
    }

    @Test
    public void rejectsTagsOutsideThirtyTwoBits() {
        for (long tag : new long[]{0, -1, 1L << 32}) {
            try {
                SteeringRule.toBuffer(FlowFilter.builder().build(), null, 12, tag, 100);
                fail("tag " + tag + " accepted");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
                assertTrue(e.getMessage(), e.getMessage().contains("buffer tag must be in 1..4294967295"));
            }
        }
    }

    @Test(expected = FlowBufException.class)
    public void rejectsPortsWiderThanNineBits() {
        SteeringFlowRules.toFlowRule(APP, DEVICE,
                                     new SteeringRule(FlowFilter.builder().build(), false, null,
                                                      512, 100));
    }

    private static PiAction action(FlowRule rule) {
        return (PiAction) ((PiInstruction) rule.treatment().allInstructions().get(0)).action();
    }

    @Test
    public void groupRuleSteersToTheMulticastGroup() {
        FlowFilter filter = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32"))
                .ipProto(17).build();
        FlowRule rule = SteeringFlowRules.toFlowRule(
                APP, DEVICE, SteeringRule.toMulticastGroup(filter, 2L, 65535, 300));
        assertEquals(FlowBufP4Names.FLOW_STEERING, rule.table());
        assertEquals(300, rule.priority());
        PiCriterion expected = PiCriterion.builder()
                .matchTernary(FlowBufP4Names.FROM_VPORT, 0L, 1L)
                .matchTernary(FlowBufP4Names.INGRESS_PORT, 2L, 0x1ffL)
                .matchTernary(FlowBufP4Names.IPV4_DST, 0x0a00000aL, 0xffffffffL)
                .matchTernary(FlowBufP4Names.IP_PROTO, 17L, 0xffL)
                .build();
        assertEquals("a group rule matches like a port rule", expected, criterion(rule));
        PiAction action = action(rule);
        assertEquals(FlowBufP4Names.STEER_TO_MCAST_GROUP, action.id());
        assertEquals(List.of(new PiActionParam(FlowBufP4Names.GROUP_ID, 65535L)),
                     List.copyOf(action.parameters()));
    }

    @Test
    public void groupAndPortRulesWithTheSameMatchDifferOnlyInTheirAction() {
        FlowFilter filter = FlowFilter.builder().ipProto(17).build();
        FlowRule toGroup = SteeringFlowRules.toFlowRule(
                APP, DEVICE, SteeringRule.toMulticastGroup(filter, 1L, 4, 100));
        FlowRule toPort = SteeringFlowRules.toFlowRule(
                APP, DEVICE, new SteeringRule(filter, false, 1L, 4, 100));
        assertEquals("same ONOS key, so switching between them is a modify",
                     toPort.selector(), toGroup.selector());
        assertFalse(toGroup.exactMatch(toPort));
        assertEquals(FlowBufP4Names.STEER_TO_PORT, action(toPort).id());
        assertTrue(SteeringFlowRules.toFlowRule(
                APP, DEVICE, SteeringRule.toMulticastGroup(filter, 1L, 4, 100))
                           .exactMatch(toGroup));
    }

    @Test
    public void multicastPortsAreCheckedAndKeptInOrder() {
        assertEquals(List.of(5L, 2L, 511L), SteeringFlowRules.multicastPorts(
                1, List.of(PortNumber.portNumber(5), PortNumber.portNumber(2),
                           PortNumber.portNumber(511))));
        List<List<PortNumber>> bad = List.of(
                List.of(), List.of(PortNumber.portNumber(0)), List.of(PortNumber.CONTROLLER),
                List.of(PortNumber.IN_PORT), List.of(PortNumber.portNumber(512)),
                List.of(PortNumber.portNumber(3), PortNumber.portNumber(3)));
        for (List<PortNumber> ports : bad) {
            try {
                SteeringFlowRules.multicastPorts(1, ports);
                fail(ports + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(ports.toString(), FlowBufException.Reason.INVALID, e.reason());
            }
        }
        for (int group : new int[]{0, -1, 65536}) {
            try {
                SteeringFlowRules.multicastPorts(group, List.of(PortNumber.portNumber(1)));
                fail("group " + group + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
            }
        }
    }
}
