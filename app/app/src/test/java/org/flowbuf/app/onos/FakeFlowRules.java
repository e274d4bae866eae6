/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * ONOS's FlowRuleService as the switches' tables: rules keyed as ONOS keys
 * a rule (device, table, selector, priority), and every operation applied,
 * in order. A refusing service fails whole batches, as a device that
 * answers a Write with an error.
 */
final class FakeFlowRules extends FlowRuleServiceAdapter {

    /** What the switches hold. */
    final Map<FlowRule, FlowRule> tables = new ConcurrentHashMap<>();
    /** Every operation applied, in order. */
    final List<FlowRuleOperation> operations = new CopyOnWriteArrayList<>();
    /** The rules added or modified, in order. */
    final List<FlowRule> added = new CopyOnWriteArrayList<>();
    /** The rules removed, in order. */
    final List<FlowRule> removed = new CopyOnWriteArrayList<>();
    /** Whether the next batches fail. */
    volatile boolean refuse;

    @Override
    public void apply(FlowRuleOperations ops) {
        if (refuse) {
            ops.callback().onError(ops);
            return;
        }
        ops.stages().forEach(stage -> stage.forEach(this::apply));
        ops.callback().onSuccess(ops);
    }

    private void apply(FlowRuleOperation op) {
        operations.add(op);
        if (op.type() == FlowRuleOperation.Type.REMOVE) {
            removed.add(op.rule());
            tables.remove(op.rule());
        } else {
            added.add(op.rule());
            tables.put(op.rule(), op.rule());
        }
    }

    /** The switch's entries: what the tables hold for the device. */
    List<FlowRule> onSwitch(DeviceId device) {
        return tables.values().stream().filter(r -> r.deviceId().equals(device))
                .collect(Collectors.toList());
    }

    /** Whether the switch has exactly these entries, actions included. */
    boolean runs(DeviceId device, Set<FlowRule> rules) {
        List<FlowRule> there = onSwitch(device);
        return there.size() == rules.size()
                && rules.stream().allMatch(r -> there.stream().anyMatch(r::exactMatch));
    }
}
