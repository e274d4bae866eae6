/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.QueueType;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.BufferConfig;
import org.flowbuf.proto.buffer.v1.BufferStats;
import org.flowbuf.proto.buffer.v1.DropCounter;
import org.flowbuf.proto.buffer.v1.InProcessBackend;
import org.flowbuf.proto.buffer.v1.LinuxInterfaceBackend;
import org.flowbuf.proto.buffer.v1.ReportSync;
import org.flowbuf.proto.buffer.v1.Vport;
import org.flowbuf.proto.buffer.v1.VportConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Domain model to and from the southbound protobuf messages. */
final class ProtoConverter {

    private ProtoConverter() {
    }

    static BufferConfig toProto(BufferSpec spec) {
        return BufferConfig.newBuilder()
                .setCapacityBytes(spec.capacityBytes())
                .setCapacityPackets(spec.capacityPackets())
                .setQueueType(toProto(spec.queueType()))
                .setOverflow(toProto(spec.overflow()))
                .build();
    }

    static VportConfig toProto(VportSlot slot, VportMode mode) {
        VportConfig.Builder b = VportConfig.newBuilder().setMode(toProto(mode))
                .setSwitchPort((int) slot.switchPort()).setTxRateBps(slot.txRateBps())
                .setTag((int) slot.tag());
        if (slot.agentInterface().isPresent()) {
            b.setLinuxInterface(LinuxInterfaceBackend.newBuilder()
                                        .setInterface(slot.agentInterface().get()));
        } else {
            b.setInProcess(InProcessBackend.newBuilder().setPort((int) slot.switchPort()));
        }
        return b.build();
    }

    static org.flowbuf.proto.buffer.v1.VportMode toProto(VportMode mode) {
        switch (mode) {
            case NONE:
                return org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_NONE;
            case RX:
                return org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_RX;
            case TX:
                return org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_TX;
            case RX_TX:
                return org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_RX_TX;
            default:
                throw new IllegalArgumentException("unknown vport mode " + mode);
        }
    }

    static org.flowbuf.proto.buffer.v1.QueueType toProto(QueueType type) {
        switch (type) {
            case FIFO:
                return org.flowbuf.proto.buffer.v1.QueueType.QUEUE_TYPE_FIFO;
            case PRIORITY:
                return org.flowbuf.proto.buffer.v1.QueueType.QUEUE_TYPE_PRIORITY;
            case ARQ:
                return org.flowbuf.proto.buffer.v1.QueueType.QUEUE_TYPE_ARQ;
            default:
                throw new IllegalArgumentException("unknown queue type " + type);
        }
    }

    static org.flowbuf.proto.buffer.v1.OverflowPolicy toProto(OverflowPolicy policy) {
        return policy == OverflowPolicy.DROP_HEAD
                ? org.flowbuf.proto.buffer.v1.OverflowPolicy.OVERFLOW_POLICY_DROP_HEAD
                : org.flowbuf.proto.buffer.v1.OverflowPolicy.OVERFLOW_POLICY_DROP_TAIL;
    }

    static BufferStatistics toStatistics(BufferStats stats) {
        long dropped = stats.getDropsList().stream().mapToLong(DropCounter::getPackets).sum();
        return BufferStatistics.builder()
                .received(stats.getPacketsIn(), stats.getBytesIn())
                .sent(stats.getPacketsOut(), stats.getBytesOut())
                .dropped(dropped)
                .occupancy(stats.getOccupancyPackets(), stats.getOccupancyBytes())
                .highWatermark(stats.getHighWatermarkPackets())
                .oldestPacketAge(stats.getOldestPacketAgeNs())
                .lastOutPacketId(stats.hasLastOutPacketId() ? toPacketId(stats.getLastOutPacketId()) : null)
                .trigger(stats.getTriggerArmed(), stats.getTriggersFired(), stats.getTriggerFailures())
                .build();
    }

    // A packet id from the agent; fields beyond 16 bits are refused (INVALID).
    static PacketId toPacketId(org.flowbuf.proto.buffer.v1.PacketId id) {
        return PacketId.of(Integer.toUnsignedLong(id.getIpv4Id()),
                           Integer.toUnsignedLong(id.getL4Checksum()));
    }

    static List<AgentBuffer> toAgentBuffers(List<org.flowbuf.proto.buffer.v1.Buffer> buffers,
                                            List<Vport> vports) {
        Map<String, Vport> byId = vports.stream()
                .collect(Collectors.toMap(Vport::getVportId, v -> v, (a, b) -> a));
        List<AgentBuffer> out = new ArrayList<>();
        for (org.flowbuf.proto.buffer.v1.Buffer b : buffers) {
            Vport vport = b.getVportIdsCount() == 0 ? null : byId.get(b.getVportIds(0));
            out.add(new AgentBuffer(BufferId.bufferId(b.getBufferId()), toSpec(b.getConfig()),
                                    vport == null ? null : VportId.vportId(vport.getVportId()),
                                    vport == null ? VportMode.NONE
                                            : fromProto(vport.getConfig().getMode()),
                                    b.getStats().getOccupancyPackets(),
                                    b.getStats().getReattached(),
                                    b.getStats().getReattachedPackets(),
                                    b.getStats().getMissedWhileDown()));
        }
        return out;
    }

    static BufferSpec toSpec(BufferConfig config) {
        return BufferSpec.builder().capacityBytes(config.getCapacityBytes())
                .capacityPackets(config.getCapacityPackets())
                .queueType(config.getQueueType() == org.flowbuf.proto.buffer.v1.QueueType
                        .QUEUE_TYPE_PRIORITY ? QueueType.PRIORITY
                        : config.getQueueType() == org.flowbuf.proto.buffer.v1.QueueType
                        .QUEUE_TYPE_ARQ ? QueueType.ARQ : QueueType.FIFO)
                .overflow(config.getOverflow() == org.flowbuf.proto.buffer.v1.OverflowPolicy
                        .OVERFLOW_POLICY_DROP_HEAD ? OverflowPolicy.DROP_HEAD
                        : OverflowPolicy.DROP_TAIL)
                .build();
    }

    static VportMode fromProto(org.flowbuf.proto.buffer.v1.VportMode mode) {
        switch (mode) {
            case VPORT_MODE_RX:
                return VportMode.RX;
            case VPORT_MODE_TX:
                return VportMode.TX;
            case VPORT_MODE_RX_TX:
                return VportMode.RX_TX;
            default:
                return VportMode.NONE;
        }
    }

    static TriggerFire fromProto(org.flowbuf.proto.buffer.v1.TriggerFire fire) {
        return TriggerFire.of(fire.getModesSet(), fromProto(fire.getReportSync()),
                              fire.getPurgedPackets());
    }

    private static TriggerFire.ReportSync fromProto(ReportSync sync) {
        switch (sync) {
            case REPORT_SYNC_SYNCED:
                return TriggerFire.ReportSync.SYNCED;
            case REPORT_SYNC_UNSYNCED:
                return TriggerFire.ReportSync.UNSYNCED;
            default:
                return TriggerFire.ReportSync.NONE;
        }
    }
}
