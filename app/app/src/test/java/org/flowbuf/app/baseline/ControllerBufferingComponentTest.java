/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerHold;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Data;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.UDP;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.DefaultPacketContext;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketServiceAdapter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** The baseline as an ONOS component, on ONOS's service adapters. */
public class ControllerBufferingComponentTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P3 = PortNumber.portNumber(3);

    private final List<FlowRuleOperation.Type> ruleOps = new ArrayList<>();
    private final List<OutboundPacket> emitted = new ArrayList<>();
    private PacketProcessor processor;
    private final ControllerBufferingComponent component = new ControllerBufferingComponent();

    @Before
    public void setUp() {
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(42, name);
            }
        };
        component.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                ops.stages().forEach(stage -> stage.forEach(op -> ruleOps.add(op.type())));
                ops.callback().onSuccess(ops);
            }
        };
        component.packetService = new PacketServiceAdapter() {
            @Override
            public void addProcessor(PacketProcessor p, int priority) {
                assertEquals(ControllerBufferingComponent.PROCESSOR_PRIORITY, priority);
                processor = p;
            }

            @Override
            public void removeProcessor(PacketProcessor p) {
                processor = null;
            }

            @Override
            public void emit(OutboundPacket packet) {
                emitted.add(packet);
            }
        };
        component.activate();
    }

    @After
    public void tearDown() {
        component.deactivate();
        assertNull("the processor is removed on deactivation", processor);
    }

    private static PacketContext packetIn(PortNumber port, String src) {
        UDP udp = new UDP();
        udp.setDestinationPort(9100);
        udp.setPayload(new Data(new byte[]{1}));
        IPv4 ip = new IPv4();
        ip.setSourceAddress(Ip4Address.valueOf(src).toInt());
        ip.setDestinationAddress(Ip4Address.valueOf("10.0.0.3").toInt());
        ip.setProtocol(IPv4.PROTOCOL_UDP);
        ip.setPayload(udp);
        Ethernet eth = new Ethernet();
        eth.setSourceMACAddress(MacAddress.valueOf(1));
        eth.setDestinationMACAddress(MacAddress.valueOf(3));
        eth.setEtherType(Ethernet.TYPE_IPV4);
        eth.setPayload(ip);
        byte[] frame = eth.serialize();
        return new DefaultPacketContext(0, new DefaultInboundPacket(
                new ConnectPoint(S1, port), eth, ByteBuffer.wrap(frame)), null, false) {
            @Override
            public void send() {
            }
        };
    }

    @Test
    public void heldPacketsAreTakenFromOtherAppsAndReplayedByPacketOut() {
        FlowFilter sensor = FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).build();
        ControllerHold hold = component.hold(S1, P1, sensor);
        assertEquals(List.of(FlowRuleOperation.Type.ADD), ruleOps);

        PacketContext held = packetIn(P1, "10.0.0.1");
        processor.process(held);
        assertTrue("a held packet is blocked for other apps", held.isHandled());
        PacketContext other = packetIn(P1, "10.0.0.2");
        processor.process(other);
        assertFalse("other traffic is left to other apps", other.isHandled());

        component.release(hold.id(), new ConnectPoint(S1, P3));
        assertEquals(List.of(FlowRuleOperation.Type.ADD, FlowRuleOperation.Type.REMOVE), ruleOps);
        assertEquals(1, emitted.size());
        assertEquals(S1, emitted.get(0).sendThrough());
        assertEquals(Instructions.createOutput(P3),
                     emitted.get(0).treatment().allInstructions().get(0));
        assertEquals(1, component.holds().iterator().next().packetOuts());
    }
}
