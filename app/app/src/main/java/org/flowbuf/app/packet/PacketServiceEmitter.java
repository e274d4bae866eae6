/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.packet;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.PacketService;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Packet-out through ONOS: the pipeconf's interpreter maps the OUTPUT
 * instruction to the packet_out header's egress_port.
 */
public final class PacketServiceEmitter implements PacketEmitter {

    private final PacketService packets;

    /**
     * Creates the emitter.
     *
     * @param packets ONOS packet service
     */
    public PacketServiceEmitter(PacketService packets) {
        this.packets = Objects.requireNonNull(packets);
    }

    @Override
    public void emit(DeviceId deviceId, PortNumber port, byte[] frame) {
        packets.emit(new DefaultOutboundPacket(
                deviceId, DefaultTrafficTreatment.builder().setOutput(port).build(),
                ByteBuffer.wrap(frame)));
    }
}
