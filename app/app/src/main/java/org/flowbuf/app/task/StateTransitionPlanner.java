/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.AgentOperation;

import java.util.List;

/**
 * Plans the move of a buffer between states: the task-level API. A buffer
 * is bound to one vport, so every move is at most one set_vport_mode (and
 * none when the buffer is already there).
 */
public final class StateTransitionPlanner {

    private StateTransitionPlanner() {
    }

    /**
     * The vport mode that puts a buffer in a state.
     *
     * @param state target state
     * @return the mode
     */
    public static VportMode modeFor(BufferState state) {
        switch (state) {
            case BUFFERING:
                return VportMode.RX;
            case SERVING:
                return VportMode.TX;
            case FORWARDING:
                return VportMode.RX_TX;
            case FREE:
            case STORING:
                return VportMode.NONE;
            default:
                throw new IllegalArgumentException("unknown state " + state);
        }
    }

    /**
     * The calls that move a buffer to a state.
     *
     * @param buffer the buffer as it is now
     * @param target the state wanted
     * @return zero or one operation
     * @throws FlowBufException CONFLICT when the occupancy forbids the state
     *                          (FREE while packets are held, STORING when empty)
     */
    public static List<AgentOperation> plan(Buffer buffer, BufferState target) {
        long held = buffer.occupancyPackets();
        if (target == BufferState.FREE && held > 0) {
            throw FlowBufException.conflict("buffer %s holds %d packets: serve them (SERVING) "
                                                    + "or remove it with discard before FREE",
                                            buffer.id(), held);
        }
        if (target == BufferState.STORING && held == 0) {
            throw FlowBufException.conflict("buffer %s is empty: an idle empty buffer is FREE, "
                                                    + "not STORING", buffer.id());
        }
        VportMode mode = modeFor(target);
        if (mode == buffer.mode()) {
            return List.of();
        }
        return List.of(AgentOperation.setVportMode(buffer.vport(), mode));
    }
}
