/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Data;
import org.onlab.packet.Ethernet;
import org.onlab.packet.IPv4;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.UDP;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertArrayEquals;
import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class ControllerBufferingManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final PortNumber P1 = PortNumber.portNumber(1);
    private static final PortNumber P3 = PortNumber.portNumber(3);
    private static final FlowFilter SENSOR = FlowFilter.builder()
            .ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).ipProto(IPv4.PROTOCOL_UDP)
            .l4DstPort(9100).build();

    private final List<String> ruleCalls = new ArrayList<>();
    private final List<byte[]> sent = new ArrayList<>();
    private FlowBufException refuseNext;
    private SteeringRuleWriter rules;
    private ControllerBufferingManager baseline;

    @Before
    public void setUp() {
        rules = new SteeringRuleWriter() {
            @Override
            public void install(DeviceId deviceId, SteeringRule rule) {
                if (refuseNext != null) {
                    FlowBufException e = refuseNext;
                    refuseNext = null;
                    throw e;
                }
                ruleCalls.add("install " + rule.ingressPort().get() + "->" + rule.outPort());
            }

            @Override
            public void modify(DeviceId deviceId, SteeringRule rule) {
                ruleCalls.add("modify");
            }

            @Override
            public void remove(DeviceId deviceId, SteeringRule rule) {
                ruleCalls.add("remove " + rule.ingressPort().get() + "->" + rule.outPort());
            }
        };
        baseline = new ControllerBufferingManager(rules, (device, port, frame) -> {
            assertEquals(P3, port);
            sent.add(frame);
        });
    }

    private static byte[] udp(String src, int dstPort, int seq) {
        UDP udp = new UDP();
        udp.setSourcePort(5000);
        udp.setDestinationPort(dstPort);
        udp.setPayload(new Data(new byte[]{(byte) seq}));
        IPv4 ip = new IPv4();
        ip.setSourceAddress(Ip4Address.valueOf(src).toInt());
        ip.setDestinationAddress(Ip4Address.valueOf("10.0.0.3").toInt());
        ip.setProtocol(IPv4.PROTOCOL_UDP);
        ip.setTtl((byte) 64);
        ip.setPayload(udp);
        Ethernet eth = new Ethernet();
        eth.setSourceMACAddress(MacAddress.valueOf("00:00:00:00:00:01"));
        eth.setDestinationMACAddress(MacAddress.valueOf("00:00:00:00:00:03"));
        eth.setEtherType(Ethernet.TYPE_IPV4);
        eth.setPayload(ip);
        return eth.serialize();
    }

    @Test
    public void aHeldFlowIsPuntedKeptAndReleasedInOrder() {
        ControllerHold hold = baseline.hold(S1, P1, SENSOR);
        assertEquals(List.of("install 1->255"), ruleCalls);
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            frames.add(udp("10.0.0.1", 9100, i));
            assertTrue(baseline.packetIn(S1, P1, frames.get(i)));
        }
        assertFalse("another sensor", baseline.packetIn(S1, P1, udp("10.0.0.2", 9100, 9)));
        assertFalse("another port", baseline.packetIn(S1, P1, udp("10.0.0.1", 9101, 9)));
        assertFalse("another in-port", baseline.packetIn(S1, P3, udp("10.0.0.1", 9100, 9)));
        assertFalse("not IPv4", baseline.packetIn(S1, P1, new byte[]{1, 2, 3}));
        ControllerHold now = baseline.holds().iterator().next();
        assertEquals(5, now.heldPackets());
        assertEquals(5L * frames.get(0).length, now.heldBytes());

        ControllerHold released = baseline.release(hold.id(), new ConnectPoint(S1, P3));
        assertEquals(ControllerHold.State.RELEASED, released.state());
        assertEquals(0, released.heldPackets());
        assertEquals(5, released.packetOuts());
        assertEquals(List.of("install 1->255", "remove 1->255"), ruleCalls);
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(frames.get(i), sent.get(i));
        }
        // A packet punted before the rule was gone is sent on, not kept.
        assertTrue(baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 7)));
        assertEquals(6, sent.size());
        assertEquals(0, baseline.holds().iterator().next().heldPackets());

        // The same flow held again: its packets go to the new hold, not the released one.
        ControllerHold again = baseline.hold(S1, P1, SENSOR);
        assertTrue(baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 8)));
        assertEquals(6, sent.size());
        assertEquals(1, baseline.holds().stream().filter(h -> h.id() == again.id())
                .findFirst().orElseThrow().heldPackets());
    }

    @Test
    public void aReleasedHoldTakesStragglersForAWhileAndOnlyTheLatestReleasedAreListed() {
        long[] now = {0};
        baseline = new ControllerBufferingManager(rules, (device, port, frame) -> sent.add(frame),
                                                  1, () -> now[0]);
        ControllerHold first = baseline.hold(S1, P1, SENSOR);
        baseline.release(first.id(), new ConnectPoint(S1, P3));
        now[0] = ControllerBufferingManager.STRAGGLER_WINDOW_NS;
        assertTrue("a straggler within the window",
                   baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 1)));
        now[0] += 1;
        assertFalse("after the window", baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 2)));
        assertEquals(1, sent.size());
        ControllerHold second = baseline.hold(S1, P1, SENSOR);
        assertEquals(2, baseline.holds().size());
        baseline.release(second.id(), new ConnectPoint(S1, P3));
        assertEquals(List.of(second.id()), baseline.holds().stream().map(ControllerHold::id)
                .collect(Collectors.toList()));
    }

    @Test
    public void theControllerTimeOfEveryPacketInTakenIsCountedOnItsHold() {
        long[] now = {0};
        baseline = new ControllerBufferingManager(rules, (device, port, frame) -> sent.add(frame),
                                                  1, () -> now[0] += 1_000);
        ControllerHold hold = baseline.hold(S1, P1, SENSOR);
        assertEquals(0, hold.packetInNanos());
        assertTrue(baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 1)));
        long one = baseline.holds().iterator().next().packetInNanos();
        assertTrue("time passed while the packet-in was taken", one > 0);
        assertFalse(baseline.packetIn(S1, P1, udp("10.0.0.2", 9100, 2)));
        assertEquals("a packet-in the hold did not take costs it nothing", one,
                     baseline.holds().iterator().next().packetInNanos());
        assertTrue(baseline.packetIn(S1, P1, udp("10.0.0.1", 9100, 3)));
        assertEquals(2 * one, baseline.release(hold.id(), new ConnectPoint(S1, P3))
                .packetInNanos());
    }

    @Test
    public void badRequestsAreRefusedAndChangeNothing() {
        assertReason(() -> baseline.hold(S1, PortNumber.CONTROLLER, SENSOR),
                     FlowBufException.Reason.INVALID);
        FlowFilter onP3 = FlowFilter.builder().inPort(P3).build();
        assertReason(() -> baseline.hold(S1, P1, onP3), FlowBufException.Reason.INVALID);
        assertReason(() -> baseline.release(7, new ConnectPoint(S1, P3)), FlowBufException.Reason.NOT_FOUND);
        refuseNext = FlowBufException.conflict("table full");
        assertReason(() -> baseline.hold(S1, P1, SENSOR), FlowBufException.Reason.CONFLICT);
        assertTrue(baseline.holds().isEmpty());
        assertTrue(ruleCalls.isEmpty());

        ControllerHold hold = baseline.hold(S1, P1, SENSOR);
        assertReason(() -> baseline.hold(S1, P1, SENSOR), FlowBufException.Reason.CONFLICT);
        assertReason(() -> baseline.release(hold.id(), new ConnectPoint(S1, PortNumber.portNumber(0))),
                     FlowBufException.Reason.INVALID);
        baseline.release(hold.id(), new ConnectPoint(S1, P3));
        assertReason(() -> baseline.release(hold.id(), new ConnectPoint(S1, P3)), FlowBufException.Reason.CONFLICT);
        assertEquals(1, baseline.holds().size());
    }

}
