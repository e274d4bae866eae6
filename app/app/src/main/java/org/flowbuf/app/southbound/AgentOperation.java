/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.BindRequest;
import org.flowbuf.proto.buffer.v1.CreateBufferRequest;
import org.flowbuf.proto.buffer.v1.CreateVportRequest;
import org.flowbuf.proto.buffer.v1.Operation;
import org.flowbuf.proto.buffer.v1.RemoveBufferRequest;
import org.flowbuf.proto.buffer.v1.RemoveVportRequest;
import org.flowbuf.proto.buffer.v1.SetVportModeRequest;
import org.flowbuf.proto.buffer.v1.UnbindRequest;

import java.util.Objects;

/**
 * One southbound change (the paper's Table 1 calls). Several are applied
 * atomically by {@link BufferAgentClient#apply}.
 */
public final class AgentOperation {

    private final Operation operation;
    private final boolean idempotent;

    private AgentOperation(Operation operation, boolean idempotent) {
        this.operation = operation;
        this.idempotent = idempotent;
    }

    /**
     * The wire form; app_id is filled in by the client.
     *
     * @return the protobuf operation
     */
    public Operation toProto() {
        return operation;
    }

    /**
     * Whether repeating the call after an unknown outcome is harmless
     * (creates with the same id and config, and mode changes, are).
     *
     * @return true if it may be retried
     */
    public boolean idempotent() {
        return idempotent;
    }

    /**
     * Creates a buffer.
     *
     * @param id   buffer id
     * @param spec size and behaviour
     * @return the operation
     */
    public static AgentOperation createBuffer(BufferId id, BufferSpec spec) {
        return new AgentOperation(Operation.newBuilder().setCreateBuffer(
                CreateBufferRequest.newBuilder().setBufferId(id.id())
                        .setConfig(ProtoConverter.toProto(spec))).build(), true);
    }

    /**
     * Creates a vport on a slot.
     *
     * @param slot the switch port and how the agent reaches it
     * @param mode initial mode
     * @return the operation
     */
    public static AgentOperation createVport(VportSlot slot, VportMode mode) {
        return new AgentOperation(Operation.newBuilder().setCreateVport(
                CreateVportRequest.newBuilder().setVportId(slot.id().id())
                        .setConfig(ProtoConverter.toProto(slot, mode))).build(), true);
    }

    /**
     * Sets a vport's mode.
     *
     * @param id   vport id
     * @param mode new mode
     * @return the operation
     */
    public static AgentOperation setVportMode(VportId id, VportMode mode) {
        return new AgentOperation(Operation.newBuilder().setSetVportMode(
                SetVportModeRequest.newBuilder().setVportId(id.id())
                        .setMode(ProtoConverter.toProto(mode))).build(), true);
    }

    /**
     * Binds a buffer to a vport.
     *
     * @param buffer buffer id
     * @param vport  vport id
     * @return the operation
     */
    public static AgentOperation bind(BufferId buffer, VportId vport) {
        return new AgentOperation(Operation.newBuilder().setBind(
                BindRequest.newBuilder().setBufferId(buffer.id()).setVportId(vport.id())).build(),
                                  false);
    }

    /**
     * Unbinds a buffer from a vport.
     *
     * @param buffer buffer id
     * @param vport  vport id
     * @return the operation
     */
    public static AgentOperation unbind(BufferId buffer, VportId vport) {
        return new AgentOperation(Operation.newBuilder().setUnbind(
                UnbindRequest.newBuilder().setBufferId(buffer.id()).setVportId(vport.id())).build(),
                                  false);
    }

    /**
     * Removes a vport.
     *
     * @param id vport id
     * @return the operation
     */
    public static AgentOperation removeVport(VportId id) {
        return new AgentOperation(Operation.newBuilder().setRemoveVport(
                RemoveVportRequest.newBuilder().setVportId(id.id())).build(), false);
    }

    /**
     * Removes a buffer.
     *
     * @param id      buffer id
     * @param discard drop held packets
     * @return the operation
     */
    public static AgentOperation removeBuffer(BufferId id, boolean discard) {
        return new AgentOperation(Operation.newBuilder().setRemoveBuffer(
                RemoveBufferRequest.newBuilder().setBufferId(id.id()).setDiscard(discard)).build(),
                                  false);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentOperation && operation.equals(((AgentOperation) o).operation);
    }

    @Override
    public int hashCode() {
        return Objects.hash(operation);
    }

    @Override
    public String toString() {
        return operation.getOpCase() + "{" + operation.toString().replace('\n', ' ').trim() + "}";
    }
}
