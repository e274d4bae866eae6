/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import com.google.common.collect.ImmutableMap;
import org.onlab.packet.DeserializationException;
import org.onlab.packet.Ethernet;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Port;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions.OutputInstruction;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.InboundPacket;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiPacketOperationType;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiPacketMetadata;
import org.onosproject.net.pi.runtime.PiPacketOperation;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.flowbuf.pipeconf.FlowBufP4Names.ACL;
import static org.flowbuf.pipeconf.FlowBufP4Names.ACL_DROP;
import static org.flowbuf.pipeconf.FlowBufP4Names.FLOW_STEERING;
import static org.flowbuf.pipeconf.FlowBufP4Names.FORWARDING_DROP;
import static org.flowbuf.pipeconf.FlowBufP4Names.L2_EXACT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PACKET_IN_INGRESS_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PACKET_OUT_EGRESS_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.PORT_BITS;
import static org.flowbuf.pipeconf.FlowBufP4Names.PUNT_TO_CPU;
import static org.flowbuf.pipeconf.FlowBufP4Names.ROUTING_V4;
import static org.flowbuf.pipeconf.FlowBufP4Names.SET_EGRESS_PORT;
import static org.flowbuf.pipeconf.FlowBufP4Names.STEER_TO_PORT;
import static org.onosproject.net.flow.instructions.Instruction.Type.OUTPUT;

/**
 * Maps ONOS's protocol-dependent view onto the FlowBuf P4 program: criteria
 * to match fields, output treatments to the tables' actions, and packets to
 * and from the controller through the packet_in/packet_out headers.
 */
public class FlowBufInterpreter extends AbstractHandlerBehaviour implements PiPipelineInterpreter {

    /** ONOS criteria and the match field each one becomes (in tables that have it). */
    static final Map<Criterion.Type, PiMatchFieldId> CRITERIA =
            ImmutableMap.<Criterion.Type, PiMatchFieldId>builder()
                    .put(Criterion.Type.IN_PORT, FlowBufP4Names.INGRESS_PORT)
                    .put(Criterion.Type.ETH_DST, FlowBufP4Names.ETH_DST)
                    .put(Criterion.Type.ETH_SRC, FlowBufP4Names.ETH_SRC)
                    .put(Criterion.Type.ETH_TYPE, FlowBufP4Names.ETH_TYPE)
                    .put(Criterion.Type.IPV4_SRC, FlowBufP4Names.IPV4_SRC)
                    .put(Criterion.Type.IPV4_DST, FlowBufP4Names.IPV4_DST)
                    .put(Criterion.Type.IP_PROTO, FlowBufP4Names.IP_PROTO)
                    .put(Criterion.Type.TCP_SRC, FlowBufP4Names.L4_SRC_PORT)
                    .put(Criterion.Type.UDP_SRC, FlowBufP4Names.L4_SRC_PORT)
                    .put(Criterion.Type.TCP_DST, FlowBufP4Names.L4_DST_PORT)
                    .put(Criterion.Type.UDP_DST, FlowBufP4Names.L4_DST_PORT)
                    .build();
    private static final Set<PiTableId> FORWARDING_TABLES = Set.of(L2_EXACT, ROUTING_V4);

    @Override
    public Optional<PiMatchFieldId> mapCriterionType(Criterion.Type type) {
        return Optional.ofNullable(CRITERIA.get(type));
    }

    @Override
    public Optional<PiTableId> mapFlowRuleTableId(int flowRuleTableId) {
        // Table 0 rules of ONOS apps (e.g. intercepts) land in the ACL,
        // which matches every field they may use.
        return flowRuleTableId == 0 ? Optional.of(ACL) : Optional.empty();
    }

    @Override
    public PiAction mapTreatment(TrafficTreatment treatment, PiTableId tableId)
            throws PiInterpreterException {
        // The empty treatment is [NOACTION]: both mean drop.
        List<Instruction> instructions = treatment.allInstructions().stream()
                .filter(i -> i.type() != Instruction.Type.NOACTION).collect(Collectors.toList());
        if (instructions.isEmpty()) {
            if (ACL.equals(tableId)) {
                return PiAction.builder().withId(ACL_DROP).build();
            }
            if (FORWARDING_TABLES.contains(tableId)) {
                return PiAction.builder().withId(FORWARDING_DROP).build();
            }
            throw new PiInterpreterException("an empty treatment means drop, which "
                                                     + tableId + " cannot do");
        }
        if (instructions.size() != 1 || instructions.get(0).type() != OUTPUT) {
            throw new PiInterpreterException("only one OUTPUT instruction maps onto "
                                                     + tableId + ": " + treatment);
        }
        PortNumber port = ((OutputInstruction) instructions.get(0)).port();
        if (ACL.equals(tableId)) {
            if (!PortNumber.CONTROLLER.equals(port)) {
                throw new PiInterpreterException("the ACL can only punt to the controller");
            }
            return PiAction.builder().withId(PUNT_TO_CPU).build();
        }
        if (port.isLogical()) {
            throw new PiInterpreterException("logical port " + port + " cannot be an egress port of "
                                                     + tableId);
        }
        if (L2_EXACT.equals(tableId)) {
            return outputAction(SET_EGRESS_PORT, port);
        }
        if (FLOW_STEERING.equals(tableId)) {
            return outputAction(STEER_TO_PORT, port);
        }
        throw new PiInterpreterException("no treatment mapping for table " + tableId);
    }

    private static PiAction outputAction(org.onosproject.net.pi.model.PiActionId action,
                                         PortNumber port) throws PiInterpreterException {
        if (port.toLong() >= (1L << PORT_BITS)) {
            throw new PiInterpreterException("port " + port + " does not fit " + PORT_BITS + " bits");
        }
        return PiAction.builder().withId(action)
                .withParameter(new PiActionParam(PORT, port.toLong())).build();
    }

    @Override
    public Collection<PiPacketOperation> mapOutboundPacket(OutboundPacket packet)
            throws PiInterpreterException {
        List<PiPacketOperation> operations = new ArrayList<>();
        for (Instruction instruction : packet.treatment().allInstructions()) {
            if (instruction.type() != OUTPUT) {
                throw new PiInterpreterException("packet-out supports OUTPUT only, not "
                                                         + instruction.type());
            }
            PortNumber port = ((OutputInstruction) instruction).port();
            for (PortNumber egress : egressPorts(packet.sendThrough(), port)) {
                operations.add(packetOut(packet.data(), egress));
            }
        }
        return operations;
    }

    /** A port is itself; FLOOD is every enabled non-logical port of the device. */
    private List<PortNumber> egressPorts(DeviceId deviceId, PortNumber port)
            throws PiInterpreterException {
        if (PortNumber.FLOOD.equals(port)) {
            DeviceService devices = handler().get(DeviceService.class);
            return devices.getPorts(deviceId).stream().filter(Port::isEnabled)
                    .map(Port::number).filter(n -> !n.isLogical())
                    .collect(Collectors.toList());
        }
        if (port.isLogical()) {
            throw new PiInterpreterException("packet-out to logical port " + port
                                                     + " is not supported");
        }
        return List.of(port);
    }

    private static PiPacketOperation packetOut(ByteBuffer data, PortNumber port)
            throws PiInterpreterException {
        try {
            return PiPacketOperation.builder()
                    .withType(PiPacketOperationType.PACKET_OUT)
                    .withData(ImmutableByteSequence.copyFrom(data.duplicate().rewind()))
                    .withMetadata(PiPacketMetadata.builder().withId(PACKET_OUT_EGRESS_PORT)
                                          .withValue(ImmutableByteSequence.copyFrom(port.toLong())
                                                             .fit(PORT_BITS)).build())
                    .build();
        } catch (ImmutableByteSequence.ByteSequenceTrimException e) {
            throw new PiInterpreterException("port " + port + " does not fit " + PORT_BITS + " bits");
        }
    }

    @Override
    public InboundPacket mapInboundPacket(PiPacketOperation packetIn, DeviceId deviceId)
            throws PiInterpreterException {
        PiPacketMetadata ingress = packetIn.metadatas().stream()
                .filter(m -> m.id().equals(PACKET_IN_INGRESS_PORT)).findFirst()
                .orElseThrow(() -> new PiInterpreterException(
                        "packet-in without " + PACKET_IN_INGRESS_PORT + " metadata"));
        byte[] frame = packetIn.data().asArray();
        Ethernet ethernet;
        try {
            ethernet = Ethernet.deserializer().deserialize(frame, 0, frame.length);
        } catch (DeserializationException e) {
            throw new PiInterpreterException("packet-in is not an Ethernet frame: " + e.getMessage());
        }
        long port = new java.math.BigInteger(1, ingress.value().asArray()).longValue();
        return new DefaultInboundPacket(new ConnectPoint(deviceId, PortNumber.portNumber(port)),
                                        ethernet, ByteBuffer.wrap(frame));
    }

    @Override
    public Optional<Integer> mapLogicalPortNumber(PortNumber port) {
        return PortNumber.CONTROLLER.equals(port) ? Optional.of(FlowBufP4Names.CPU_PORT)
                : Optional.empty();
    }
}
