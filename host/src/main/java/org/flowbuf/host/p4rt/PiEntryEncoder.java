/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.ByteString;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;
import p4.config.v1.P4InfoOuterClass;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.FieldMatch;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.MeterConfig;
import p4.v1.P4RuntimeOuterClass.MeterEntry;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.util.Objects;
import java.util.Optional;

/**
 * Encodes ONOS PI flow rules (a PiCriterion and a PiAction, as the FlowBuf
 * pipeconf's rules are built) into P4Runtime table entries, resolving names
 * to the p4info's ids and writing bytestrings in canonical form.
 */
public final class PiEntryEncoder {

    private final P4InfoIndex p4info;

    /**
     * Creates an encoder for a pipeline.
     *
     * @param p4info the pipeline's p4info
     */
    public PiEntryEncoder(P4InfoIndex p4info) {
        this.p4info = Objects.requireNonNull(p4info);
    }

    /**
     * Encodes a flow rule.
     *
     * @param rule PI flow rule
     * @return the table entry
     * @throws IllegalArgumentException when the rule does not fit the p4info
     */
    public TableEntry encode(FlowRule rule) {
        if (!(rule.table() instanceof PiTableId)) {
            throw new IllegalArgumentException("not a PI table: " + rule.table());
        }
        P4InfoOuterClass.Table table = p4info.table(((PiTableId) rule.table()).id());
        TableEntry.Builder entry = TableEntry.newBuilder().setTableId(table.getPreamble().getId());
        PiCriterion criterion = (PiCriterion) rule.selector()
                .getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
        if (criterion != null) {
            for (PiFieldMatch match : criterion.fieldMatches()) {
                fieldMatch(table, match).ifPresent(entry::addMatch);
            }
        }
        if (hasTernaryOrRange(table)) {
            entry.setPriority(rule.priority());
        }
        entry.setAction(TableAction.newBuilder().setAction(action(rule)));
        return entry.build();
    }

    /**
     * Encodes one cell of an indexed meter.
     *
     * @param meterId the meter
     * @param index   the cell
     * @param config  its configuration; empty makes the cell unconfigured again
     * @return the meter entry
     * @throws IllegalArgumentException when the p4info has no such meter or
     *                                  the index is beyond its size
     */
    public MeterEntry encodeMeter(PiMeterId meterId, long index, Optional<MeterConfig> config) {
        P4InfoOuterClass.Meter meter = p4info.meter(meterId.id());
        if (index < 0 || index >= meter.getSize()) {
            throw new IllegalArgumentException(meterId.id() + " has " + meter.getSize()
                                                       + " cells, not " + index);
        }
        MeterEntry.Builder entry = MeterEntry.newBuilder().setMeterId(meter.getPreamble().getId())
                .setIndex(Index.newBuilder().setIndex(index));
        config.ifPresent(entry::setConfig);
        return entry.build();
    }

    private Optional<FieldMatch> fieldMatch(P4InfoOuterClass.Table table,
                                                      PiFieldMatch match) {
        P4InfoOuterClass.MatchField field = p4info.matchField(table, match.fieldId().id());
        int bits = field.getBitwidth();
        FieldMatch.Builder fm = FieldMatch.newBuilder().setFieldId(field.getId());
        switch (match.type()) {
            case EXACT:
                fm.setExact(FieldMatch.Exact.newBuilder()
                                    .setValue(canonical(((PiExactFieldMatch) match).value(), bits,
                                                        field.getName())));
                break;
            case TERNARY:
                PiTernaryFieldMatch ternary = (PiTernaryFieldMatch) match;
                if (isZero(ternary.mask())) {
                    // P4Runtime: a don't-care ternary match is omitted, not sent with mask 0.
                    return Optional.empty();
                }
                fm.setTernary(FieldMatch.Ternary.newBuilder()
                                      .setValue(canonical(ternary.value(), bits, field.getName()))
                                      .setMask(canonical(ternary.mask(), bits, field.getName())));
                break;
            case LPM:
                PiLpmFieldMatch lpm = (PiLpmFieldMatch) match;
                if (lpm.prefixLength() == 0) {
                    return Optional.empty();
                }
                fm.setLpm(FieldMatch.LPM.newBuilder()
                                  .setValue(canonical(lpm.value(), bits, field.getName()))
                                  .setPrefixLen(lpm.prefixLength()));
                break;
            case RANGE:
                PiRangeFieldMatch range = (PiRangeFieldMatch) match;
                BigInteger low = new BigInteger(1, range.lowValue().asArray());
                BigInteger high = new BigInteger(1, range.highValue().asArray());
                if (low.signum() == 0 && high.equals(BigInteger.ONE.shiftLeft(bits)
                                                             .subtract(BigInteger.ONE))) {
                    // P4Runtime: a don't-care range match is omitted.
                    return Optional.empty();
                }
                fm.setRange(FieldMatch.Range.newBuilder()
                                    .setLow(canonical(range.lowValue(), bits, field.getName()))
                                    .setHigh(canonical(range.highValue(), bits, field.getName())));
                break;
            default:
                throw new IllegalArgumentException("match type " + match.type()
                                                           + " is not supported by the host");
        }
        return Optional.of(fm.build());
    }

    private Action action(FlowRule rule) {
        PiAction piAction = rule.treatment().allInstructions().stream()
                .filter(i -> i.type() == Instruction.Type.PROTOCOL_INDEPENDENT)
                .map(i -> ((PiInstruction) i).action())
                .filter(a -> a instanceof PiAction).map(a -> (PiAction) a)
                .findFirst().orElseThrow(() -> new IllegalArgumentException(
                        "the rule has no PI action: " + rule.treatment()));
        P4InfoOuterClass.Action action = p4info.action(piAction.id().id());
        Action.Builder encoded = Action.newBuilder().setActionId(action.getPreamble().getId());
        for (PiActionParam param : piAction.parameters()) {
            P4InfoOuterClass.Action.Param p = p4info.param(action, param.id().id());
            encoded.addParams(Action.Param.newBuilder().setParamId(p.getId())
                                      .setValue(canonical(param.value(), p.getBitwidth(),
                                                          p.getName())));
        }
        return encoded.build();
    }

    private static boolean hasTernaryOrRange(P4InfoOuterClass.Table table) {
        return table.getMatchFieldsList().stream().anyMatch(
                f -> f.getMatchType() == P4InfoOuterClass.MatchField.MatchType.TERNARY
                        || f.getMatchType() == P4InfoOuterClass.MatchField.MatchType.RANGE
                        || f.getMatchType() == P4InfoOuterClass.MatchField.MatchType.OPTIONAL);
    }

    private static boolean isZero(ImmutableByteSequence value) {
        return new BigInteger(1, value.asArray()).signum() == 0;
    }

    /**
     * The canonical P4Runtime bytestring of a value: no leading zero bytes,
     * at least one byte.
     *
     * @param value value
     * @param bits  width of the field or parameter
     * @param name  its name, for the error
     * @return bytestring
     * @throws IllegalArgumentException when the value is wider than the field
     */
    static ByteString canonical(ImmutableByteSequence value, int bits, String name) {
        BigInteger number = new BigInteger(1, value.asArray());
        if (number.bitLength() > bits) {
            throw new IllegalArgumentException(name + " value " + number + " does not fit "
                                                       + bits + " bits");
        }
        byte[] bytes = number.toByteArray();
        int start = 0;
        while (start < bytes.length - 1 && bytes[start] == 0) {
            start++;
        }
        return ByteString.copyFrom(bytes, start, bytes.length - start);
    }
}
