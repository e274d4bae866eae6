/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * A buffer on a device as the Buffer Service knows it: the pair of vports it
 * is attached to (RX from the pipeline, TX back to it), their modes, and the
 * last occupancy the agent reported. Its state is derived, never stored.
 */
public final class Buffer {

    private final DeviceId deviceId;
    private final BufferId id;
    private final String owner;
    private final BufferSpec spec;
    private final VportId rxVport;
    private final VportId txVport;
    private final VportMode rxMode;
    private final VportMode txMode;
    private final long occupancyPackets;

    /**
     * Creates a buffer description.
     *
     * @param deviceId         device the buffer lives on
     * @param id               buffer id
     * @param owner            application that owns it
     * @param spec             size and behaviour
     * @param rxVport          vport that carries packets in
     * @param txVport          vport that carries packets out
     * @param rxMode           current mode of the RX vport
     * @param txMode           current mode of the TX vport
     * @param occupancyPackets packets held, as last reported
     */
    public Buffer(DeviceId deviceId, BufferId id, String owner, BufferSpec spec,
                  VportId rxVport, VportId txVport, VportMode rxMode, VportMode txMode,
                  long occupancyPackets) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.id = Objects.requireNonNull(id);
        this.owner = Objects.requireNonNull(owner);
        this.spec = Objects.requireNonNull(spec);
        this.rxVport = Objects.requireNonNull(rxVport);
        this.txVport = Objects.requireNonNull(txVport);
        this.rxMode = Objects.requireNonNull(rxMode);
        this.txMode = Objects.requireNonNull(txMode);
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
     * The vport from the pipeline into the buffer.
     *
     * @return vport id
     */
    public VportId rxVport() {
        return rxVport;
    }

    /**
     * The vport from the buffer back into the pipeline.
     *
     * @return vport id
     */
    public VportId txVport() {
        return txVport;
    }

    /**
     * Current mode of the RX vport.
     *
     * @return mode
     */
    public VportMode rxMode() {
        return rxMode;
    }

    /**
     * Current mode of the TX vport.
     *
     * @return mode
     */
    public VportMode txMode() {
        return txMode;
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
        return BufferState.derive(rxMode.hasRx() || txMode.hasRx(),
                                  rxMode.hasTx() || txMode.hasTx(), occupancyPackets);
    }

    /**
     * A copy with other vport modes.
     *
     * @param newRxMode RX vport mode
     * @param newTxMode TX vport mode
     * @return the copy
     */
    public Buffer withModes(VportMode newRxMode, VportMode newTxMode) {
        return new Buffer(deviceId, id, owner, spec, rxVport, txVport, newRxMode, newTxMode,
                          occupancyPackets);
    }

    /**
     * A copy with another occupancy.
     *
     * @param packets packets held
     * @return the copy
     */
    public Buffer withOccupancy(long packets) {
        return new Buffer(deviceId, id, owner, spec, rxVport, txVport, rxMode, txMode, packets);
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
                && rxVport.equals(that.rxVport) && txVport.equals(that.txVport)
                && rxMode == that.rxMode && txMode == that.txMode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, id, owner, spec, rxVport, txVport, rxMode, txMode,
                            occupancyPackets);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("device", deviceId).add("id", id)
                .add("state", state()).add("owner", owner).add("spec", spec)
                .add("rx", rxVport + "/" + rxMode).add("tx", txVport + "/" + txMode)
                .add("packets", occupancyPackets).toString();
    }
}
