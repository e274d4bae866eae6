/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * A buffer on a device as the Buffer Service knows it: the vport it is bound
 * to (a switch port whose far end is this buffer), that vport's mode, and the
 * last occupancy the agent reported. Its state is derived, never stored.
 */
public final class Buffer {

    private final DeviceId deviceId;
    private final BufferId id;
    private final String owner;
    private final BufferSpec spec;
    private final VportId vport;
    private final VportMode mode;
    private final long occupancyPackets;

    /**
     * Creates a buffer description.
     *
     * @param deviceId         device the buffer lives on
     * @param id               buffer id
     * @param owner            application that owns it
     * @param spec             size and behaviour
     * @param vport            vport the buffer is bound to
     * @param mode             current mode of that vport
     * @param occupancyPackets packets held, as last reported
     */
    public Buffer(DeviceId deviceId, BufferId id, String owner, BufferSpec spec,
                  VportId vport, VportMode mode, long occupancyPackets) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.id = Objects.requireNonNull(id);
        this.owner = Objects.requireNonNull(owner);
        this.spec = Objects.requireNonNull(spec);
        this.vport = Objects.requireNonNull(vport);
        this.mode = Objects.requireNonNull(mode);
        this.occupancyPackets = occupancyPackets;
    }

    /**
     * Device of the buffer.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * Buffer id.
     *
     * @return id
     */
    public BufferId id() {
        return id;
    }

    /**
     * Owning application.
     *
     * @return application name
     */
    public String owner() {
        return owner;
    }

    /**
     * Size and behaviour.
     *
     * @return spec
     */
    public BufferSpec spec() {
        return spec;
    }

    /**
     * The vport the buffer is bound to.
     *
     * @return vport id
     */
    public VportId vport() {
        return vport;
    }

    /**
     * Current mode of the vport.
     *
     * @return mode
     */
    public VportMode mode() {
        return mode;
    }

    /**
     * Packets held, as last reported by the agent.
     *
     * @return packets
     */
    public long occupancyPackets() {
        return occupancyPackets;
    }

    /**
     * The state derived from the vport modes and the occupancy.
     *
     * @return state
     */
    public BufferState state() {
        return BufferState.derive(mode.hasRx(), mode.hasTx(), occupancyPackets);
    }

    /**
     * A copy with another vport mode.
     *
     * @param newMode vport mode
     * @return the copy
     */
    public Buffer withMode(VportMode newMode) {
        return new Buffer(deviceId, id, owner, spec, vport, newMode, occupancyPackets);
    }

    /**
     * A copy with another owner (a buffer made ahead, handed to an app).
     *
     * @param newOwner owning application
     * @return the copy
     */
    public Buffer withOwner(String newOwner) {
        return new Buffer(deviceId, id, newOwner, spec, vport, mode, occupancyPackets);
    }

    /**
     * A copy with another occupancy.
     *
     * @param packets packets held
     * @return the copy
     */
    public Buffer withOccupancy(long packets) {
        return new Buffer(deviceId, id, owner, spec, vport, mode, packets);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Buffer)) {
            return false;
        }
        Buffer that = (Buffer) o;
        return occupancyPackets == that.occupancyPackets && deviceId.equals(that.deviceId)
                && id.equals(that.id) && owner.equals(that.owner) && spec.equals(that.spec)
                && vport.equals(that.vport) && mode == that.mode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, id, owner, spec, vport, mode, occupancyPackets);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("device", deviceId).add("id", id)
                .add("state", state()).add("owner", owner).add("spec", spec)
                .add("vport", vport + "/" + mode)
                .add("packets", occupancyPackets).toString();
    }
}
