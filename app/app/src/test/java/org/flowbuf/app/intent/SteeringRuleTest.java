/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.junit.Test;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A steering rule goes to a port or to a multicast group, and the group is
 * part of its identity.
 */
public class SteeringRuleTest {

    private static final FlowFilter FLOW = FlowFilter.builder().ipProto(17).l4DstPort(5001)
            .build();

    @Test
    public void aGroupRuleNamesItsGroupAndNoPort() {
        SteeringRule rule = SteeringRule.toMulticastGroup(FLOW, 1L, 42, 300);
        assertEquals(Optional.of(42), rule.multicastGroup());
        assertEquals(0L, rule.outPort());
        assertFalse("group rules match packets that are not replays", rule.fromVport());
        assertEquals(Optional.of(1L), rule.ingressPort());
        assertEquals(300, rule.priority());
        assertEquals(FLOW, rule.filter());
        assertTrue(rule.toString(), rule.toString().contains("multicastGroup=42"));
        assertEquals(Optional.empty(),
                     SteeringRule.toMulticastGroup(FLOW, null, 42, 300).ingressPort());
    }

    @Test
    public void aPortRuleHasNoGroup() {
        SteeringRule rule = new SteeringRule(FLOW, false, 1L, 7, 300);
        assertEquals(Optional.empty(), rule.multicastGroup());
        assertEquals(7L, rule.outPort());
    }

    @Test
    public void theGroupIsPartOfEqualityAndHash() {
        SteeringRule group = SteeringRule.toMulticastGroup(FLOW, 1L, 42, 300);
        assertEquals(group, SteeringRule.toMulticastGroup(FLOW, 1L, 42, 300));
        assertEquals(group.hashCode(),
                     SteeringRule.toMulticastGroup(FLOW, 1L, 42, 300).hashCode());
        assertNotEquals(group, SteeringRule.toMulticastGroup(FLOW, 1L, 43, 300));
        assertNotEquals("port 0 is not group 42", group,
                        new SteeringRule(FLOW, false, 1L, 0, 300));
        assertNotEquals(new SteeringRule(FLOW, false, 1L, 0, 300), group);
    }

    @Test
    public void groupIdsOutsideSixteenBitsAreInvalid() {
        assertEquals(Optional.of(1), SteeringRule.toMulticastGroup(FLOW, null, 1, 1)
                .multicastGroup());
        assertEquals(Optional.of(65535), SteeringRule.toMulticastGroup(FLOW, null, 65535, 1)
                .multicastGroup());
        for (int bad : new int[]{0, -1, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            try {
                SteeringRule.toMulticastGroup(FLOW, null, bad, 1);
                fail("group " + bad + " was accepted");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.INVALID, e.reason());
                assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(bad)));
            }
        }
    }
}
