/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.flowbuf.api.FlowFilter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;

/**
 * A flow held in the controller's memory by the controller-buffering
 * baseline: what it holds and what it has cost the controller so far.
 */
public final class ControllerHold {

    /** Lifecycle of a hold. */
    public enum State {
        /** Packets of the flow are punted to the controller and kept. */
        HOLDING,
        /** The held packets were sent out; the punt rule is gone. */
        RELEASED
    }

    private final long id;
    private final DeviceId deviceId;
    private final PortNumber inPort;
    private final FlowFilter filter;
    private final State state;
    private final long heldPackets;
    private final long heldBytes;
    private final long packetIns;
    private final long packetOuts;
    private final long packetInNanos;

    /**
     * Creates a snapshot.
     *
     * @param id          hold id
     * @param deviceId    switch the flow is punted from
     * @param inPort      port the flow arrives on
     * @param filter      the flow
     * @param state       lifecycle state
     * @param heldPackets packets in controller memory now
     * @param heldBytes   bytes in controller memory now
     * @param packetIns   packet-ins taken for this hold so far
     * @param packetOuts  packet-outs sent for this hold so far
     * @param packetInNanos controller time spent taking this hold's packet-ins
     */
    public ControllerHold(long id, DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                          State state, long heldPackets, long heldBytes, long packetIns,
                          long packetOuts, long packetInNanos) {
        this.id = id;
        this.deviceId = Objects.requireNonNull(deviceId);
        this.inPort = Objects.requireNonNull(inPort);
        this.filter = Objects.requireNonNull(filter);
        this.state = Objects.requireNonNull(state);
        this.heldPackets = heldPackets;
        this.heldBytes = heldBytes;
        this.packetIns = packetIns;
        this.packetOuts = packetOuts;
        this.packetInNanos = packetInNanos;
    }

    /** @return hold id */
    public long id() {
        return id;
    }

    /** @return switch the flow is punted from */
    public DeviceId deviceId() {
        return deviceId;
    }

    /** @return port the flow arrives on */
    public PortNumber inPort() {
        return inPort;
    }

    /** @return the flow */
    public FlowFilter filter() {
        return filter;
    }

    /** @return lifecycle state */
    public State state() {
        return state;
    }

    /** @return packets in controller memory now */
    public long heldPackets() {
        return heldPackets;
    }

    /** @return bytes in controller memory now */
    public long heldBytes() {
        return heldBytes;
    }

    /** @return packet-ins taken for this hold */
    public long packetIns() {
        return packetIns;
    }

    /** @return packet-outs sent for this hold */
    public long packetOuts() {
        return packetOuts;
    }

    /**
     * The controller's time on this hold's packet-ins: from the packet-in
     * reaching the baseline to the frame kept (or, after the release, sent
     * straight out). The paper's per-packet controller occupancy; what the
     * switch connection costs before a packet-in reaches the baseline is
     * not in it.
     *
     * @return nanoseconds
     */
    public long packetInNanos() {
        return packetInNanos;
    }

    @Override
    public String toString() {
        return "ControllerHold{" + id + " " + deviceId + "/" + inPort + " " + state + " held="
                + heldPackets + "}";
    }
}
