/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * One connectionless upload: a sensor's data held in a switch buffer until
 * the collector asks for it.
 */
public final class CcUpload {

    /** Where an upload is. */
    public enum State {
        /** The sensor's uplink flows into the buffer. */
        UPLOADING,
        /** The upload is complete; the buffer keeps it (Storing). */
        STORED,
        /** The buffer served the data towards the collector. */
        SERVED,
        /** Buffer and rules are gone. */
        RELEASED
    }

    private final long id;
    private final DeviceId deviceId;
    private final PortNumber sensorPort;
    private final FlowFilter flow;
    private final BufferId buffer;
    private final State state;
    private final PortNumber collectorPort;

    /**
     * Creates an upload record.
     *
     * @param id            upload id
     * @param deviceId      switch holding the data
     * @param sensorPort    port the sensor's uplink arrives on
     * @param flow          the sensor's uplink
     * @param buffer        buffer holding it
     * @param state         where the upload is
     * @param collectorPort port the data was served to, null before
     */
    public CcUpload(long id, DeviceId deviceId, PortNumber sensorPort, FlowFilter flow,
                    BufferId buffer, State state, PortNumber collectorPort) {
        this.id = id;
        this.deviceId = Objects.requireNonNull(deviceId);
        this.sensorPort = Objects.requireNonNull(sensorPort);
        this.flow = Objects.requireNonNull(flow);
        this.buffer = Objects.requireNonNull(buffer);
        this.state = Objects.requireNonNull(state);
        this.collectorPort = collectorPort;
    }

    /**
     * Upload id.
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
     * Port the sensor's uplink arrives on.
     *
     * @return port
     */
    public PortNumber sensorPort() {
        return sensorPort;
    }

    /**
     * The sensor's uplink.
     *
     * @return filter
     */
    public FlowFilter flow() {
        return flow;
    }

    /**
     * Buffer holding the data.
     *
     * @return buffer id
     */
    public BufferId buffer() {
        return buffer;
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
     * Where the data was served.
     *
     * @return port, empty before the download
     */
    public Optional<PortNumber> collectorPort() {
        return Optional.ofNullable(collectorPort);
    }

    /**
     * This upload in another state.
     *
     * @param newState  state
     * @param collector collector port (kept when null)
     * @return the upload
     */
    public CcUpload with(State newState, PortNumber collector) {
        return new CcUpload(id, deviceId, sensorPort, flow, buffer, newState,
                            collector != null ? collector : collectorPort);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("id", id).add("device", deviceId)
                .add("flow", flow).add("buffer", buffer).add("state", state).toString();
    }
}
