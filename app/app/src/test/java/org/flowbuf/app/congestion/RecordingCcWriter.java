/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.pipeconf.CcP4Names;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiTableAction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A switch's tables as a map, strict like P4Runtime: inserting an entry
 * that exists, or changing one that does not, fails the test.
 */
final class RecordingCcWriter implements CcWriter {

    final Map<DeviceId, Map<String, FlowRule>> entries = new HashMap<>();
    final List<DeviceId> writes = new ArrayList<>();
    final Set<DeviceId> refuse = new HashSet<>();
    /** Runs at each write: a test's slow switch. */
    Runnable onWrite = () -> { };

    private static String key(FlowRule r) {
        return r.table() + "|" + r.selector();
    }

    @Override
    public void write(DeviceId deviceId, CcWrite write) {
        if (refuse.contains(deviceId)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, deviceId + " refused");
        }
        onWrite.run();
        writes.add(deviceId);
        Map<String, FlowRule> table = entries.computeIfAbsent(deviceId, d -> new HashMap<>());
        for (FlowRule r : write.removes()) {
            if (table.remove(key(r)) == null) {
                throw new AssertionError("removed a missing entry " + r);
            }
        }
        for (FlowRule r : write.inserts()) {
            if (table.put(key(r), r) != null) {
                throw new AssertionError("inserted an existing entry " + r);
            }
        }
        for (FlowRule r : write.modifies()) {
            if (table.put(key(r), r) == null) {
                throw new AssertionError("modified a missing entry " + r);
            }
        }
        if (table.isEmpty()) {
            entries.remove(deviceId);
        }
    }

    /** How many entries a switch holds in a table. */
    long count(DeviceId device, PiTableId table) {
        return entries.getOrDefault(device, Map.of()).values().stream()
                .filter(r -> r.table().equals(table)).count();
    }

    /** The generations the switch's cc_flows entries carry. */
    Set<Long> generations(DeviceId device) {
        return entries.getOrDefault(device, Map.of()).values().stream()
                .filter(r -> r.table().equals(CcP4Names.FLOWS))
                .map(r -> (PiAction) ((PiTableAction) ((PiInstruction) r.treatment()
                        .allInstructions().get(0)).action()))
                .map(a -> a.parameters().stream()
                        .filter(p -> p.id().equals(CcP4Names.GENERATION)).findFirst()
                        .orElseThrow().value().asReadOnlyBuffer().getLong() & 0xffffffffL)
                .collect(Collectors.toSet());
    }

    /** The out ports of a switch's cc_paths entries. */
    List<String> paths(DeviceId device, PiTableId table) {
        return entries.getOrDefault(device, Map.of()).values().stream()
                .filter(r -> r.table().equals(table)).map(r -> r.treatment().toString())
                .collect(Collectors.toList());
    }
}
