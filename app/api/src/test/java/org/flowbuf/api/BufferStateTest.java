/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The five states follow from the vport directions and the occupancy. */
public class BufferStateTest {

    @Test
    public void statesFollowDirectionsAndOccupancy() {
        assertEquals(BufferState.FREE, BufferState.derive(false, false, 0));
        assertEquals(BufferState.STORING, BufferState.derive(false, false, 1));
        for (long held : new long[]{0, 5}) {
            assertEquals(BufferState.BUFFERING, BufferState.derive(true, false, held));
            assertEquals(BufferState.SERVING, BufferState.derive(false, true, held));
            assertEquals(BufferState.FORWARDING, BufferState.derive(true, true, held));
        }
    }

    @Test
    public void onlyBufferingAndForwardingReceive() {
        for (BufferState s : BufferState.values()) {
            assertEquals(s == BufferState.BUFFERING || s == BufferState.FORWARDING, s.receives());
            assertEquals(s == BufferState.SERVING || s == BufferState.FORWARDING, s.transmits());
        }
    }

    @Test
    public void vportModesNameTheirDirections() {
        assertTrue(VportMode.RX_TX.hasRx() && VportMode.RX_TX.hasTx());
        assertFalse(VportMode.NONE.hasRx() || VportMode.NONE.hasTx());
        assertTrue(VportMode.RX.hasRx() && !VportMode.RX.hasTx());
        assertTrue(VportMode.TX.hasTx() && !VportMode.TX.hasRx());
    }
}
