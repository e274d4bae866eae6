/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;

/** The agent directory of a one-device lab: its agent, vport slots and ready buffers. */
public final class OneDeviceAgents implements AgentDirectory {

    private final DeviceId device;
    private final BufferAgentClient client;
    private final List<VportSlot> slots;
    private final IntSupplier readyBuffers;

    /**
     * The two vport slots of the tests' switch: vp100 and vp101 on switch
     * ports 100 and 101.
     *
     * @return slots
     */
    public static List<VportSlot> twoVports() {
        return List.of(new VportSlot(VportId.vportId("vp100"), 100, null),
                       new VportSlot(VportId.vportId("vp101"), 101, null));
    }

    /**
     * A device that keeps no ready buffers.
     *
     * @param device the device
     * @param client its agent
     * @param slots  its vport slots
     */
    public OneDeviceAgents(DeviceId device, BufferAgentClient client, List<VportSlot> slots) {
        this(device, client, slots, () -> 0);
    }

    /**
     * A device that keeps ready buffers.
     *
     * @param device       the device
     * @param client       its agent
     * @param slots        its vport slots
     * @param readyBuffers how many ready buffers it keeps, read at each use
     */
    public OneDeviceAgents(DeviceId device, BufferAgentClient client, List<VportSlot> slots,
                           IntSupplier readyBuffers) {
        this.device = device;
        this.client = client;
        this.slots = List.copyOf(slots);
        this.readyBuffers = readyBuffers;
    }

    @Override
    public BufferAgentClient agent(DeviceId deviceId) {
        if (!deviceId.equals(device)) {
            throw FlowBufException.notFound("device %s has no buffer agent", deviceId);
        }
        return client;
    }

    @Override
    public List<VportSlot> vportSlots(DeviceId deviceId) {
        return deviceId.equals(device) ? slots : List.of();
    }

    @Override
    public int readyBuffers(DeviceId deviceId) {
        return deviceId.equals(device) ? readyBuffers.getAsInt() : 0;
    }

    @Override
    public Set<DeviceId> devices() {
        return Set.of(device);
    }
}
