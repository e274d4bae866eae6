/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.flowbuf.api.congestion.CongestionMode;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a flow is laid out on the switches: its paths, the slot the source
 * switch forwards it by, and the thresholds per switch. {@link CcEntries}
 * turns it into table entries.
 *
 * <p>Only the source switch has two slots: the primary's next hop in
 * {@code slot}, the backup's in the other. Every other switch of either
 * path forwards the flow from slot 0 and never switches it (it has no
 * alternate), so its slot register stays 0.
 */
final class CcLayout {

    private final int index;
    private final long generation;
    private final FlowFilter filter;
    private final MacAddress dstMac;
    private final CcPath primary;
    private final CcPath backup;
    private final int slot;
    private final Map<DeviceId, CcThresholds> thresholds;
    private final CongestionMode mode;
    private final CcSink sink;

    CcLayout(int index, FlowFilter filter, MacAddress dstMac, CcPath primary, CcPath backup,
             int slot, Map<DeviceId, CcThresholds> thresholds) {
        this(index, filter, dstMac, primary, backup, slot, thresholds, CongestionMode.DATAPLANE);
    }

    CcLayout(int index, FlowFilter filter, MacAddress dstMac, CcPath primary, CcPath backup,
             int slot, Map<DeviceId, CcThresholds> thresholds, CongestionMode mode) {
        this(index, 0, filter, dstMac, primary, backup, slot, thresholds, mode, null);
    }

    private CcLayout(int index, long generation, FlowFilter filter, MacAddress dstMac,
                     CcPath primary, CcPath backup, int slot,
                     Map<DeviceId, CcThresholds> thresholds, CongestionMode mode, CcSink sink) {
        this.sink = sink;
        this.index = index;
        this.generation = generation;
        this.filter = Objects.requireNonNull(filter);
        this.dstMac = Objects.requireNonNull(dstMac);
        this.primary = Objects.requireNonNull(primary);
        this.backup = backup;
        this.slot = slot;
        this.thresholds = Map.copyOf(thresholds);
        this.mode = Objects.requireNonNull(mode);
    }

    int index() {
        return index;
    }

    /**
     * The registration the flow's register cells belong to (cc_flows'
     * generation): a switch starts the cells from zero on the first packet
     * of another generation, so a reused index inherits nothing.
     *
     * @return 0..2^32-1
     */
    long generation() {
        return generation;
    }

    /**
     * This layout for a registration of its own.
     *
     * @param cellsGeneration the generation, 0..2^32-1
     * @return the layout
     */
    CcLayout withGeneration(long cellsGeneration) {
        if (cellsGeneration < 0 || cellsGeneration > 0xffffffffL) {
            throw new IllegalArgumentException("a generation is 32 bits, not " + cellsGeneration);
        }
        return new CcLayout(index, cellsGeneration, filter, dstMac, primary, backup, slot,
                            thresholds, mode, sink);
    }

    FlowFilter filter() {
        return filter;
    }

    MacAddress dstMac() {
        return dstMac;
    }

    CcPath primary() {
        return primary;
    }

    Optional<CcPath> backup() {
        return Optional.ofNullable(backup);
    }

    int slot() {
        return slot;
    }

    DeviceId source() {
        return primary.first().device();
    }

    Map<DeviceId, CcThresholds> thresholds() {
        return thresholds;
    }

    CongestionMode mode() {
        return mode;
    }

    /**
     * The destination switch: where both paths end and a probe is punted.
     *
     * @return device
     */
    DeviceId destination() {
        return primary.hops().get(primary.hops().size() - 1).device();
    }

    /**
     * The merge switch: the last switch of the paths (disjoint paths share
     * only their ends).
     *
     * @return device
     */
    DeviceId merge() {
        return destination();
    }

    /**
     * Where the merge switch steers the flow's end markers.
     *
     * @return sink, empty unless the flow is ordered
     */
    Optional<CcSink> sink() {
        return Optional.ofNullable(sink);
    }

    /**
     * This layout for an ordered flow: the source sends end markers, the
     * merge switch steers them into the sink.
     *
     * @param markerSink the trigger buffer's vport
     * @return the layout
     */
    CcLayout ordered(CcSink markerSink) {
        return new CcLayout(index, generation, filter, dstMac, primary, backup, slot, thresholds,
                            mode, Objects.requireNonNull(markerSink));
    }

    /**
     * The same paths with the primary in slot 0: what a source switch
     * whose registers restarted from zero forwards by.
     *
     * @return the layout
     */
    CcLayout inSlotZero() {
        return new CcLayout(index, generation, filter, dstMac, primary, backup, 0, thresholds,
                            mode, sink);
    }

    /**
     * The layout after the source moved the flow to the backup's slot.
     *
     * @param newBackup     the new backup, null when none
     * @param newThresholds thresholds on the switches of both paths
     * @return the new layout
     */
    CcLayout promoted(CcPath newBackup, Map<DeviceId, CcThresholds> newThresholds) {
        return new CcLayout(index, generation, filter, dstMac, backup, newBackup, 1 - slot,
                            newThresholds, mode, sink);
    }

    /**
     * The layout after the controller moved the flow to its backup: the
     * same slots, the slot the flow takes now holding the backup's next
     * hop (no register to write: P4Runtime on BMv2 has none).
     *
     * @param newBackup     the new backup, null when none
     * @param newThresholds thresholds on the switches of both paths
     * @return the new layout
     */
    CcLayout rerouted(CcPath newBackup, Map<DeviceId, CcThresholds> newThresholds) {
        return new CcLayout(index, generation, filter, dstMac, backup, newBackup, slot,
                            newThresholds, mode, sink);
    }
}
