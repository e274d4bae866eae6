/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.congestion;

import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A registered latency-critical flow: its request, the data-plane flow
 * index, the path it takes, its backup, the thresholds on each switch and
 * the switch-overs so far. Immutable; a change makes a new one.
 */
public final class LatencyCriticalFlow {

    /** Switch-overs kept per flow, newest last. */
    public static final int KEPT_SWITCH_OVERS = 100;

    private final long id;
    private final int index;
    private final CcFlowRequest request;
    private final CcPath primary;
    private final CcPath backup;
    private final Map<DeviceId, CcThresholds> thresholds;
    private final List<SwitchOver> switchOvers;
    private final long switchOverCount;
    private final OrderedSwitchover ordered;
    private final ProbeStats probes;

    /**
     * Creates a flow.
     *
     * @param id          service-wide id
     * @param index       the flow's index in the P4 tables and registers
     * @param request     what was asked for
     * @param primary     the path it takes
     * @param backup      its backup, null when it has none
     * @param thresholds  thresholds per switch (empty in NOCC mode)
     * @param switchOvers switch-overs so far, oldest first
     */
    public LatencyCriticalFlow(long id, int index, CcFlowRequest request, CcPath primary,
                               CcPath backup, Map<DeviceId, CcThresholds> thresholds,
                               List<SwitchOver> switchOvers) {
        this(id, index, request, primary, backup, thresholds, switchOvers, switchOvers.size(),
             null, null);
    }

    private LatencyCriticalFlow(long id, int index, CcFlowRequest request, CcPath primary,
                                CcPath backup, Map<DeviceId, CcThresholds> thresholds,
                                List<SwitchOver> switchOvers, long switchOverCount,
                                OrderedSwitchover ordered, ProbeStats probes) {
        this.ordered = ordered;
        this.id = id;
        this.index = index;
        this.request = Objects.requireNonNull(request);
        this.primary = Objects.requireNonNull(primary);
        this.backup = backup;
        this.thresholds = Map.copyOf(thresholds);
        this.switchOvers = List.copyOf(switchOvers);
        this.switchOverCount = switchOverCount;
        this.probes = probes;
    }

    /**
     * The id.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * The flow index in the P4 tables (cc_flow_t).
     *
     * @return index
     */
    public int index() {
        return index;
    }

    /**
     * The request.
     *
     * @return request
     */
    public CcFlowRequest request() {
        return request;
    }

    /**
     * The path the flow takes.
     *
     * @return path
     */
    public CcPath primary() {
        return primary;
    }

    /**
     * Its backup.
     *
     * @return path, empty when the topology has none (or in NOCC mode)
     */
    public Optional<CcPath> backup() {
        return Optional.ofNullable(backup);
    }

    /**
     * Thresholds per switch.
     *
     * @return thresholds
     */
    public Map<DeviceId, CcThresholds> thresholds() {
        return thresholds;
    }

    /**
     * Switch-overs so far (the latest {@value #KEPT_SWITCH_OVERS}).
     *
     * @return records, oldest first
     */
    public List<SwitchOver> switchOvers() {
        return switchOvers;
    }

    /**
     * How many switch-overs the flow has made since it was registered,
     * those no longer kept in {@link #switchOvers()} too.
     *
     * @return count
     */
    public long switchOverCount() {
        return switchOverCount;
    }

    /**
     * The delays of the latest switch-over.
     *
     * @return record, empty before the first
     */
    public Optional<SwitchOver> lastSwitchOver() {
        return switchOvers.isEmpty() ? Optional.empty()
                : Optional.of(switchOvers.get(switchOvers.size() - 1));
    }

    /**
     * What the probes of a PROBING flow found.
     *
     * @return counters, empty in the other modes
     */
    public Optional<ProbeStats> probes() {
        return Optional.ofNullable(probes);
    }

    /**
     * This flow with its probes' counters now.
     *
     * @param stats counters
     * @return the flow with them
     */
    public LatencyCriticalFlow withProbes(ProbeStats stats) {
        return new LatencyCriticalFlow(id, index, request, primary, backup, thresholds,
                                       switchOvers, switchOverCount, ordered, stats);
    }

    /**
     * This flow after a switch-over: the backup is the primary now.
     *
     * @param newPrimary    the path the flow takes now
     * @param newBackup     the new backup, null when none
     * @param newThresholds thresholds on the switches of both
     * @param record        the switch-over
     * @return the new flow
     */
    public LatencyCriticalFlow switchedOver(CcPath newPrimary, CcPath newBackup,
                                            Map<DeviceId, CcThresholds> newThresholds,
                                            SwitchOver record) {
        List<SwitchOver> records = new ArrayList<>(switchOvers);
        records.add(record);
        while (records.size() > KEPT_SWITCH_OVERS) {
            records.remove(0);
        }
        return new LatencyCriticalFlow(id, index, request, newPrimary, newBackup, newThresholds,
                                       records, switchOverCount + 1, ordered, probes);
    }

    /**
     * The merge buffer's state, for a flow registered with orderedSwitchover.
     *
     * @return state, empty for other flows
     */
    public Optional<OrderedSwitchover> ordered() {
        return Optional.ofNullable(ordered);
    }

    /**
     * This flow with its merge buffer's state now.
     *
     * @param state the state
     * @return the flow
     */
    public LatencyCriticalFlow withOrdered(OrderedSwitchover state) {
        return new LatencyCriticalFlow(id, index, request, primary, backup, thresholds,
                                       switchOvers, switchOverCount, state, probes);
    }
}
