/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.AgentOperation;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Every move between the five states, with the fewest southbound calls. */
public class StateTransitionPlannerTest {

    private static final VportId VPORT = VportId.vportId("vp100");

    private static Buffer bufferIn(BufferState state) {
        long held = state == BufferState.FREE ? 0 : 3;
        return new Buffer(DeviceId.deviceId("device:s1"), BufferId.bufferId("b"), "app",
                          BufferSpec.builder().capacityPackets(10).build(), VPORT,
                          StateTransitionPlanner.modeFor(state), held);
    }

    @Test
    public void modesRoundTripThroughTheirStates() {
        for (BufferState s : BufferState.values()) {
            Buffer b = bufferIn(s);
            assertEquals(s, b.state());
        }
    }

    @Test
    public void everyAllowedMoveIsAtMostOneSetVportModeAndLandsInTheTarget() {
        for (BufferState from : BufferState.values()) {
            for (BufferState to : BufferState.values()) {
                Buffer b = bufferIn(from);
                boolean held = b.occupancyPackets() > 0;
                if (to == BufferState.FREE && held || to == BufferState.STORING && !held) {
                    continue; // refused: see occupancyForbidsFreeWhileHoldingAndStoringWhenEmpty
                }
                List<AgentOperation> plan = StateTransitionPlanner.plan(b, to);
                VportMode target = StateTransitionPlanner.modeFor(to);
                if (target == b.mode()) {
                    assertTrue(from + "->" + to + " needs no call", plan.isEmpty());
                } else {
                    assertEquals(from + "->" + to,
                                 List.of(AgentOperation.setVportMode(VPORT, target)), plan);
                }
                assertEquals(from + "->" + to, to, b.withMode(target).state());
            }
        }
    }

    @Test
    public void forwardingToBufferingIsOneSetVportMode() {
        assertEquals(List.of(AgentOperation.setVportMode(VPORT, VportMode.RX)),
                     StateTransitionPlanner.plan(bufferIn(BufferState.FORWARDING),
                                                 BufferState.BUFFERING));
    }

    @Test
    public void occupancyForbidsFreeWhileHoldingAndStoringWhenEmpty() {
        for (BufferState from : new BufferState[]{BufferState.BUFFERING, BufferState.STORING,
                BufferState.SERVING, BufferState.FORWARDING}) {
            assertConflict(bufferIn(from), BufferState.FREE);
        }
        assertConflict(bufferIn(BufferState.FREE), BufferState.STORING);
        assertConflict(bufferIn(BufferState.FORWARDING).withOccupancy(0), BufferState.STORING);
    }

    private static void assertConflict(Buffer b, BufferState to) {
        try {
            StateTransitionPlanner.plan(b, to);
            fail(b.state() + " with " + b.occupancyPackets() + " packets -> " + to + " allowed");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
        }
    }
}
