/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;
import org.onlab.packet.Ethernet;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineInterpreter.PiInterpreterException;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Criteria, treatments and packets as the FlowBuf program sees them.
 */
public class FlowBufInterpreterTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private final FlowBufInterpreter interpreter = new FlowBufInterpreter();

    private static byte[] frame() {
        Ethernet eth = new Ethernet();
        eth.setSourceMACAddress(MacAddress.valueOf("00:00:00:00:00:01"))
                .setDestinationMACAddress(MacAddress.valueOf("00:00:00:00:00:02"))
                .setEtherType(Ethernet.TYPE_ARP);
        eth.setPayload(new org.onlab.packet.Data(new byte[46]));
        return eth.serialize();
    }

    @Test
    public void criteriaMapToTheProgramsMatchFields() {
        assertEquals(Optional.of(FlowBufP4Names.INGRESS_PORT),
                     interpreter.mapCriterionType(Criterion.Type.IN_PORT));
        assertEquals(Optional.of(FlowBufP4Names.L4_DST_PORT),
                     interpreter.mapCriterionType(Criterion.Type.UDP_DST));
        assertEquals(Optional.empty(), interpreter.mapCriterionType(Criterion.Type.MPLS_LABEL));
        assertEquals(Optional.of(FlowBufP4Names.ACL), interpreter.mapFlowRuleTableId(0));
        assertEquals(Optional.empty(), interpreter.mapFlowRuleTableId(3));
    }

    @Test
    public void outputsBecomeTheTablesActions() throws PiInterpreterException {
        PiAction punt = interpreter.mapTreatment(DefaultTrafficTreatment.builder().punt().build(),
                                                 FlowBufP4Names.ACL);
        assertEquals(FlowBufP4Names.PUNT_TO_CPU, punt.id());
        PiAction l2 = interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(3)).build(),
                FlowBufP4Names.L2_EXACT);
        assertEquals(FlowBufP4Names.SET_EGRESS_PORT, l2.id());
        assertEquals(ImmutableByteSequence.copyFrom(3L),
                     l2.parameters().iterator().next().value());
        assertEquals(FlowBufP4Names.FORWARDING_DROP,
                     interpreter.mapTreatment(DefaultTrafficTreatment.emptyTreatment(),
                                              FlowBufP4Names.L2_EXACT).id());
        assertEquals(FlowBufP4Names.STEER_TO_PORT, interpreter.mapTreatment(
                DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(100)).build(),
                FlowBufP4Names.FLOW_STEERING).id());
    }

    @Test
    public void treatmentsThePipelineCannotDoAreRefused() {
        List<Runnable> bad = List.of(
                () -> map(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(1))
                                  .build(), FlowBufP4Names.ACL),
                () -> map(DefaultTrafficTreatment.builder().setOutput(PortNumber.FLOOD).build(),
                          FlowBufP4Names.L2_EXACT),
                () -> map(DefaultTrafficTreatment.builder().setOutput(PortNumber.portNumber(600))
                                  .build(), FlowBufP4Names.L2_EXACT),
                () -> map(DefaultTrafficTreatment.builder().setEthDst(MacAddress.BROADCAST)
                                  .build(), FlowBufP4Names.L2_EXACT),
                () -> map(DefaultTrafficTreatment.emptyTreatment(), FlowBufP4Names.FLOW_STEERING));
        for (Runnable r : bad) {
            try {
                r.run();
                fail("accepted a treatment the pipeline cannot do");
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getCause() instanceof PiInterpreterException);
            }
        }
    }

    private void map(org.onosproject.net.flow.TrafficTreatment t,
                     org.onosproject.net.pi.model.PiTableId table) {
        try {
            interpreter.mapTreatment(t, table);
        } catch (PiInterpreterException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    public void aPacketOutCarriesItsEgressPort() throws PiInterpreterException {
        byte[] data = frame();
        List<PiPacketOperation> ops = List.copyOf(interpreter.mapOutboundPacket(
                new DefaultOutboundPacket(S1, DefaultTrafficTreatment.builder()
                        .setOutput(PortNumber.portNumber(2)).build(), ByteBuffer.wrap(data))));
        assertEquals(1, ops.size());
        assertEquals(PiPacketOperationType.PACKET_OUT, ops.get(0).type());
        PiPacketMetadata port = ops.get(0).metadatas().iterator().next();
        assertEquals(FlowBufP4Names.PACKET_OUT_EGRESS_PORT, port.id());
        assertEquals(2, port.value().asReadOnlyBuffer().get(port.value().size() - 1));
        assertEquals(ImmutableByteSequence.copyFrom(data), ops.get(0).data());
    }

    @Test
    public void aPacketInComesFromItsIngressPort() throws PiInterpreterException {
        PiPacketOperation in = PiPacketOperation.builder()
                .withType(PiPacketOperationType.PACKET_IN)
                .withData(ImmutableByteSequence.copyFrom(frame()))
                .withMetadata(PiPacketMetadata.builder()
                                      .withId(FlowBufP4Names.PACKET_IN_INGRESS_PORT)
                                      .withValue(ImmutableByteSequence.copyFrom((short) 7))
                                      .build())
                .build();
        InboundPacket packet = interpreter.mapInboundPacket(in, S1);
        assertEquals(PortNumber.portNumber(7), packet.receivedFrom().port());
        assertEquals(S1, packet.receivedFrom().deviceId());
        assertEquals(Ethernet.TYPE_ARP, packet.parsed().getEtherType());
        try {
            interpreter.mapInboundPacket(PiPacketOperation.builder()
                                                 .withType(PiPacketOperationType.PACKET_IN)
                                                 .withData(ImmutableByteSequence.copyFrom(frame()))
                                                 .build(), S1);
            fail("a packet-in without its ingress port was accepted");
        } catch (PiInterpreterException expected) {
            assertTrue(expected.getMessage().contains("ingress_port"));
        }
    }

    @Test
    public void theControllerIsTheCpuPort() {
        assertEquals(Optional.of(255), interpreter.mapLogicalPortNumber(PortNumber.CONTROLLER));
        assertEquals(Optional.empty(), interpreter.mapLogicalPortNumber(PortNumber.FLOOD));
    }
}
