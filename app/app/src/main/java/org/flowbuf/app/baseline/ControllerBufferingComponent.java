/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.app.packet.PacketServiceEmitter;
import org.flowbuf.app.pi.FlowRuleServiceSteeringWriter;
import org.onosproject.core.CoreService;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;

/**
 * The controller-buffering baseline inside ONOS: punt rules through the
 * FlowRuleService, packet-ins from a PacketProcessor, replays by packet-out.
 * A packet a hold takes is marked handled so that no other app forwards it.
 */
@Component(immediate = true, service = ControllerBufferingService.class)
public class ControllerBufferingComponent implements ControllerBufferingService {

    private static final String APP_NAME = "org.flowbuf.app";
    /** Ahead of ONOS's forwarding apps, which would otherwise forward a held packet. */
    static final int PROCESSOR_PRIORITY = PacketProcessor.advisor(1);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    private ControllerBufferingManager manager;
    private final PacketProcessor processor = this::process;

    @Activate
    protected void activate() {
        manager = new ControllerBufferingManager(
                new FlowRuleServiceSteeringWriter(coreService.registerApplication(APP_NAME),
                                                  flowRuleService, Duration.ofSeconds(5)),
                new PacketServiceEmitter(packetService));
        packetService.addProcessor(processor, PROCESSOR_PRIORITY);
    }

    @Deactivate
    protected void deactivate() {
        packetService.removeProcessor(processor);
    }

    private void process(PacketContext context) {
        if (context.isHandled()) {
            return;
        }
        ConnectPoint from = context.inPacket().receivedFrom();
        ByteBuffer data = context.inPacket().unparsed();
        byte[] frame = new byte[data.remaining()];
        data.duplicate().get(frame);
        if (manager.packetIn(from.deviceId(), from.port(), frame)) {
            context.block();
        }
    }

    @Override
    public ControllerHold hold(DeviceId deviceId, PortNumber inPort, FlowFilter filter) {
        return manager.hold(deviceId, inPort, filter);
    }

    @Override
    public ControllerHold release(long id, ConnectPoint out) {
        return manager.release(id, out);
    }

    @Override
    public Collection<ControllerHold> holds() {
        return manager.holds();
    }

    @Override
    public boolean packetIn(DeviceId deviceId, PortNumber inPort, byte[] frame) {
        return manager.packetIn(deviceId, inPort, frame);
    }
}
