/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.packet.PacketEmitter;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Map;
import java.util.Objects;

/**
 * Packet-out on a switch's P4Runtime stream, with the packet_out header's
 * egress_port set (what ONOS's interpreter does for an OUTPUT instruction).
 */
final class P4RuntimePacketEmitter implements PacketEmitter {

    static final String EGRESS_PORT = "egress_port";

    private final Map<DeviceId, SwitchSession> switches;

    P4RuntimePacketEmitter(Map<DeviceId, SwitchSession> switches) {
        this.switches = Map.copyOf(switches);
    }

    @Override
    public void emit(DeviceId deviceId, PortNumber port, byte[] frame) {
        SwitchSession session = switches.get(Objects.requireNonNull(deviceId));
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        session.packetOut(frame, Map.of(EGRESS_PORT, port.toLong()));
    }
}
