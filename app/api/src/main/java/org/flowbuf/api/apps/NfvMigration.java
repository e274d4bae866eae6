/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * One NFV flow migration: a flow held in a buffer while its network
 * function's state moves to a new instance, then released into it.
 */
public final class NfvMigration {

    /** Where a migration is. */
    public enum State {
        /** The flow is held; the NF state is being moved. */
        HOLDING,
        /** The held packets went to the new instance, and the flow follows. */
        COMPLETED,
        /** The held packets went back to the old instance. */
        ABORTED
    }

    private final long id;
    private final DeviceId deviceId;
    private final PortNumber inPort;
    private final FlowFilter flow;
    private final BufferId buffer;
    private final IntentId pauseIntent;
    private final State state;
    private final PortNumber releasedTo;

    /**
     * Creates a migration record.
     *
     * @param id          migration id
     * @param deviceId    switch the flow is held on
     * @param inPort      port the flow arrives on
     * @param flow        the flow
     * @param buffer      buffer holding it
     * @param pauseIntent the pause intent that holds it
     * @param state       where the migration is
     * @param releasedTo  port the held packets went to, null while holding
     */
    public NfvMigration(long id, DeviceId deviceId, PortNumber inPort, FlowFilter flow,
                        BufferId buffer, IntentId pauseIntent, State state,
                        PortNumber releasedTo) {
        this.id = id;
        this.deviceId = Objects.requireNonNull(deviceId);
        this.inPort = Objects.requireNonNull(inPort);
        this.flow = Objects.requireNonNull(flow);
        this.buffer = Objects.requireNonNull(buffer);
        this.pauseIntent = Objects.requireNonNull(pauseIntent);
        this.state = Objects.requireNonNull(state);
        this.releasedTo = releasedTo;
    }

    /**
     * Migration id.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * Switch.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * Port the flow arrives on.
     *
     * @return port
     */
    public PortNumber inPort() {
        return inPort;
    }

    /**
     * The migrated flow.
     *
     * @return filter
     */
    public FlowFilter flow() {
        return flow;
    }

    /**
     * The buffer holding the flow.
     *
     * @return buffer id
     */
    public BufferId buffer() {
        return buffer;
    }

    /**
     * The pause intent.
     *
     * @return intent id
     */
    public IntentId pauseIntent() {
        return pauseIntent;
    }

    /**
     * State.
     *
     * @return state
     */
    public State state() {
        return state;
    }

    /**
     * Where the held packets were released.
     *
     * @return port, empty while holding
     */
    public Optional<PortNumber> releasedTo() {
        return Optional.ofNullable(releasedTo);
    }

    /**
     * This migration after its release.
     *
     * @param newState COMPLETED or ABORTED
     * @param port     port the packets went to
     * @return the released migration
     */
    public NfvMigration released(State newState, PortNumber port) {
        return new NfvMigration(id, deviceId, inPort, flow, buffer, pauseIntent, newState, port);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("device", deviceId)
                .add("flow", flow).add("buffer", buffer).add("state", state)
                .add("releasedTo", releasedTo).toString();
    }
}
