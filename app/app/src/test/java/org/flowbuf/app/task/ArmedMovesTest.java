/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferState;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** What the manager remembers of armed moves, per device and trigger. */
public class ArmedMovesTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final BufferId BELL = BufferId.bufferId("bell");
    private static final BufferId HORN = BufferId.bufferId("horn");
    private static final BufferId HELD = BufferId.bufferId("held");

    @Test
    public void everyTriggerMovingABufferIsFoundOnItsDeviceOnly() {
        ArmedMoves armed = new ArmedMoves();
        armed.put(S1, BELL, new ArmedMoves.Armed(HELD, BufferState.FORWARDING));
        armed.put(S1, HORN, new ArmedMoves.Armed(HELD, BufferState.BUFFERING));
        armed.put(S2, BELL, new ArmedMoves.Armed(HELD, BufferState.FORWARDING));
        assertEquals(Set.of(BELL, HORN), Set.copyOf(armed.triggersMoving(S1, HELD)));
        assertEquals(List.of(), armed.triggersMoving(S1, BELL));
        assertEquals(BufferState.BUFFERING, armed.remove(S1, HORN).orElseThrow().state);
        assertEquals(List.of(BELL), armed.triggersMoving(S1, HELD));
        assertTrue(armed.remove(S1, HORN).isEmpty());
        assertTrue(armed.remove(DeviceId.deviceId("device:s9"), BELL).isEmpty());
    }

    @Test
    public void armingATriggerAgainReplacesItsMove() {
        ArmedMoves armed = new ArmedMoves();
        armed.put(S1, BELL, new ArmedMoves.Armed(HELD, BufferState.FORWARDING));
        armed.put(S1, BELL, new ArmedMoves.Armed(HORN, BufferState.FORWARDING));
        assertEquals(List.of(), armed.triggersMoving(S1, HELD));
        assertEquals(List.of(BELL), armed.triggersMoving(S1, HORN));
    }
}
