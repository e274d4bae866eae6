/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * A pause or resume of a flow on a device (the paper's intent-level API),
 * with its lifecycle.
 */
public final class FlowBufIntent {

    /** What the intent does. */
    public enum Type {
        /** Steer the flow arriving on a port into a buffer and hold it. */
        PAUSE,
        /** Replay the buffered flow towards a port, then let it pass through. */
        RESUME
    }

    /** Where the intent is in its life. */
    public enum State {
        /** Accepted, being installed. */
        REQUESTED,
        /** Its rules and buffer state are in place. */
        INSTALLED,
        /** A step failed; everything it did was rolled back. */
        FAILED,
        /** Removed on request. */
        WITHDRAWN
    }

    private final IntentId id;
    private final Type type;
    private final DeviceId deviceId;
    private final PortNumber port;
    private final FlowFilter filter;
    private final BufferId bufferId;
    private final State state;
    private final String owner;
    private final String failure;

    /**
     * Creates an intent.
     *
     * @param id       intent id
     * @param type     pause or resume
     * @param deviceId device
     * @param port     in-port (pause) or out-port (resume)
     * @param filter   the flow
     * @param bufferId buffer, null until one is chosen
     * @param state    lifecycle state
     * @param owner    requesting application
     * @param failure  why it failed, null otherwise
     */
    public FlowBufIntent(IntentId id, Type type, DeviceId deviceId, PortNumber port,
                         FlowFilter filter, BufferId bufferId, State state, String owner,
                         String failure) {
        this.id = Objects.requireNonNull(id);
        this.type = Objects.requireNonNull(type);
        this.deviceId = Objects.requireNonNull(deviceId);
        this.port = Objects.requireNonNull(port);
        this.filter = Objects.requireNonNull(filter);
        this.bufferId = bufferId;
        this.state = Objects.requireNonNull(state);
        this.owner = Objects.requireNonNull(owner);
        this.failure = failure;
    }

    /**
     * Intent id.
     *
     * @return id
     */
    public IntentId id() {
        return id;
    }

    /**
     * Pause or resume.
     *
     * @return type
     */
    public Type type() {
        return type;
    }

    /**
     * Device.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * In-port of a pause, out-port of a resume.
     *
     * @return port
     */
    public PortNumber port() {
        return port;
    }

    /**
     * The flow.
     *
     * @return filter
     */
    public FlowFilter filter() {
        return filter;
    }

    /**
     * The buffer the flow goes through.
     *
     * @return buffer id, empty until chosen
     */
    public Optional<BufferId> bufferId() {
        return Optional.ofNullable(bufferId);
    }

    /**
     * Lifecycle state.
     *
     * @return state
     */
    public State state() {
        return state;
    }

    /**
     * Requesting application.
     *
     * @return owner
     */
    public String owner() {
        return owner;
    }

    /**
     * Why the intent failed.
     *
     * @return message, empty unless FAILED
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * A copy in another state.
     *
     * @param newState the state
     * @param buffer   the buffer chosen (may be null)
     * @param why      failure message (null unless FAILED)
     * @return the copy
     */
    public FlowBufIntent with(State newState, BufferId buffer, String why) {
        return new FlowBufIntent(id, type, deviceId, port, filter, buffer, newState, owner, why);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof FlowBufIntent)) {
            return false;
        }
        FlowBufIntent i = (FlowBufIntent) o;
        return id.equals(i.id) && type == i.type && deviceId.equals(i.deviceId)
                && port.equals(i.port) && filter.equals(i.filter)
                && Objects.equals(bufferId, i.bufferId) && state == i.state
                && owner.equals(i.owner) && Objects.equals(failure, i.failure);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, type, deviceId, port, filter, bufferId, state, owner, failure);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).omitNullValues().add("id", id).add("type", type)
                .add("device", deviceId).add("port", port).add("filter", filter)
                .add("buffer", bufferId).add("state", state).add("owner", owner)
                .add("failure", failure).toString();
    }
}
