/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.ByteString;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.Table;
import p4.v1.P4RuntimeOuterClass.Action.Param;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads steering rules back from the entries of a switch's flow_steering
 * table (the inverse of {@link PiEntryEncoder} for those rules): what a
 * restarted controller finds steering paused and resumed flows.
 */
public final class SteeringEntryDecoder {

    private final int tableId;
    private final Map<Integer, String> fields = new HashMap<>();
    private final int steerToPort;
    private final int portParam;
    private final int steerToBuffer;
    private final int bufferPortParam;
    private final int tagParam;

    /**
     * Creates a decoder for a pipeline.
     *
     * @param p4info the pipeline's p4info
     */
    public SteeringEntryDecoder(P4InfoIndex p4info) {
        Table table = p4info.table(FlowBufP4Names.FLOW_STEERING.id());
        tableId = table.getPreamble().getId();
        for (MatchField field : table.getMatchFieldsList()) {
            fields.put(field.getId(), field.getName());
        }
        Action steer = p4info.action(FlowBufP4Names.STEER_TO_PORT.id());
        steerToPort = steer.getPreamble().getId();
        portParam = p4info.param(steer, FlowBufP4Names.PORT.id()).getId();
        Action toBuffer = p4info.action(FlowBufP4Names.STEER_TO_BUFFER.id());
        steerToBuffer = toBuffer.getPreamble().getId();
        bufferPortParam = p4info.param(toBuffer, FlowBufP4Names.PORT.id()).getId();
        tagParam = p4info.param(toBuffer, FlowBufP4Names.TAG.id()).getId();
    }

    private Optional<Long> param(TableEntry entry, int id) {
        return entry.getAction().getAction().getParamsList().stream()
                .filter(p -> p.getParamId() == id).map(Param::getValue)
                .map(SteeringEntryDecoder::number).findFirst();
    }

    /**
     * The p4info id of the steering table.
     *
     * @return table id
     */
    public int tableId() {
        return tableId;
    }

    /**
     * The steering rule of a table entry.
     *
     * @param entry an entry read from the switch
     * @return the rule; empty for an entry of another table, one that steers
     *         to a multicast group, or one no FlowBuf writer makes
     */
    public Optional<SteeringRule> decode(TableEntry entry) {
        if (entry.getTableId() != tableId || !entry.getAction().hasAction()) {
            return Optional.empty();
        }
        int actionId = entry.getAction().getAction().getActionId();
        Optional<Long> out;
        Optional<Long> tag = Optional.of(0L);
        if (actionId == steerToPort) {
            out = param(entry, portParam);
        } else if (actionId == steerToBuffer) {
            out = param(entry, bufferPortParam);
            tag = param(entry, tagParam);
        } else {
            return Optional.empty();
        }
        if (out.isEmpty() || tag.isEmpty()) {
            return Optional.empty();
        }
        boolean fromVport = false;
        Long ingressPort = null;
        FlowFilter.Builder filter = FlowFilter.builder();
        try {
            for (FieldMatch match : entry.getMatchList()) {
                if (!match.hasTernary()) {
                    return Optional.empty();
                }
                long value = number(match.getTernary().getValue());
                long mask = number(match.getTernary().getMask());
                String name = fields.getOrDefault(match.getFieldId(), "");
                switch (name) {
                    case "from_vport":
                        fromVport = value == 1;
                        break;
                    case "ingress_port":
                        ingressPort = value;
                        break;
                    case "ipv4_src":
                        filter.ipv4Src(prefix(value, mask));
                        break;
                    case "ipv4_dst":
                        filter.ipv4Dst(prefix(value, mask));
                        break;
                    case "ip_proto":
                        filter.ipProto((int) value);
                        break;
                    case "l4_src_port":
                        filter.l4SrcPort((int) value);
                        break;
                    case "l4_dst_port":
                        filter.l4DstPort((int) value);
                        break;
                    default:
                        return Optional.empty();
                }
            }
            if (tag.get() != 0) {
                return Optional.of(SteeringRule.toBuffer(filter.build(), ingressPort, out.get(),
                                                         tag.get(), entry.getPriority()));
            }
            return Optional.of(new SteeringRule(filter.build(), fromVport, ingressPort, out.get(),
                                                entry.getPriority()));
        } catch (RuntimeException notOurs) {
            return Optional.empty();
        }
    }

    private static long number(ByteString bytes) {
        return new BigInteger(1, bytes.toByteArray()).longValue();
    }

    private static IpPrefix prefix(long value, long mask) {
        return IpPrefix.valueOf(Ip4Address.valueOf((int) value), Long.bitCount(mask & 0xffffffffL));
    }
}
