/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.Vport;
import org.flowbuf.app.southbound.AgentDirectory;
import org.flowbuf.app.southbound.VportSlot;
import org.onosproject.net.DeviceId;

import java.util.Optional;

/**
 * The buffer side of a pause: the buffer that will receive the flow, made
 * to receive, remembering how to undo that.
 */
final class PauseSteps {

    // Size of a buffer allocated for a pause without a buffer id.
    static final BufferSpec AUTO_BUFFER = BufferSpec.defaults();

    private final BufferService buffers;
    private final AgentDirectory agents;
    private final DeviceId deviceId;
    private final String owner;
    private final IntentId intentId;
    private BufferId created;
    private BufferId moved;
    private BufferState movedFrom;

    PauseSteps(BufferService buffers, AgentDirectory agents, DeviceId deviceId, String owner,
               IntentId intentId) {
        this.buffers = buffers;
        this.agents = agents;
        this.deviceId = deviceId;
        this.owner = owner;
        this.intentId = intentId;
    }

    // The vport of the given or reused buffer, moved to BUFFERING, or of a
    // new one. The vport mode, known locally, says where the buffer was;
    // only an unbound buffer (Free or Storing) needs the agent's occupancy
    // to know what to restore on undo. The move happens even when the buffer
    // already receives: it refuses a caller that does not own the buffer,
    // and costs no agent call then.
    Vport receivingVport(Optional<BufferId> id) {
        if (id.isEmpty()) {
            // A ready buffer when the device keeps some (no agent call), else a new one.
            Buffer b = buffers.allocateBuffer(deviceId, BufferId.bufferId("auto-" + intentId.id()),
                                              owner, AUTO_BUFFER);
            created = b.id();
            VportSlot slot = slotOf(b);
            return new Vport(b.vport(), slot.switchPort(), slot.tag(), b.id(), b.mode());
        }
        Vport before = vportOf(buffers, deviceId, id.get());
        BufferState from = stateBefore(before);
        buffers.moveBuffer(deviceId, id.get(), owner, BufferState.BUFFERING);
        if (from == BufferState.BUFFERING) {
            return before;
        }
        moved = id.get();
        movedFrom = from;
        return vportOf(buffers, deviceId, id.get());
    }

    // Undoes what receivingVport did; the caller's failure is what matters.
    void undo() {
        try {
            if (created != null) {
                buffers.removeBuffer(deviceId, created, owner, true);
            } else if (moved != null) {
                buffers.moveBuffer(deviceId, moved, owner, movedFrom);
            }
        } catch (FlowBufException e) {
            // The store reconciles the buffer with its agent on the next query.
            return;
        }
    }

    // The vport a buffer is bound to, as the service knows it: no agent call.
    static Vport vportOf(BufferService buffers, DeviceId deviceId, BufferId id) {
        return buffers.getVports(deviceId).stream()
                .filter(v -> v.buffer().equals(Optional.of(id))).findFirst()
                .orElseThrow(() -> FlowBufException.notFound("no buffer %s on %s", id, deviceId));
    }

    private BufferState stateBefore(Vport vport) {
        if (vport.mode().hasRx() || vport.mode().hasTx()) {
            return BufferState.derive(vport.mode().hasRx(), vport.mode().hasTx(), 0);
        }
        BufferId id = vport.buffer().orElseThrow();
        return buffers.getBuffer(deviceId, id).map(Buffer::state).orElseThrow(
                () -> FlowBufException.notFound("no buffer %s on %s", id, deviceId));
    }

    // The configured slot (switch port, tag) of the vport a buffer is bound to.
    private VportSlot slotOf(Buffer buffer) {
        return agents.vportSlots(buffer.deviceId()).stream()
                .filter(s -> s.id().equals(buffer.vport()))
                .findFirst().orElseThrow(() -> FlowBufException.notFound(
                        "vport %s of buffer %s is not configured on %s", buffer.vport(),
                        buffer.id(), buffer.deviceId()));
    }
}
