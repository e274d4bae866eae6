/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fake device for the UPF writer seam: keeps each device's entries (keyed
 * as a switch keys them: table, selector, priority) and meter cells, refuses
 * an insert of an existing key like P4Runtime, and can be told to refuse a
 * device's next write.
 */
final class RecordingUpfWriter implements UpfWriter {

    final Map<DeviceId, Map<String, FlowRule>> entries = new HashMap<>();
    final Map<DeviceId, Map<String, MeterCell>> meters = new HashMap<>();
    final List<DeviceId> writes = new ArrayList<>();
    final Set<DeviceId> refuseNext = new HashSet<>();

    static String key(FlowRule r) {
        return r.table() + "|" + r.selector() + "|" + r.priority();
    }

    @Override
    public void write(DeviceId deviceId, UpfWrite write) {
        if (refuseNext.remove(deviceId)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, deviceId + " refused");
        }
        writes.add(deviceId);
        Map<String, FlowRule> table = entries.computeIfAbsent(deviceId, d -> new HashMap<>());
        for (FlowRule r : write.removes()) {
            table.remove(key(r));
        }
        for (FlowRule r : write.inserts()) {
            if (table.containsKey(key(r))) {
                throw FlowBufException.conflict("%s exists", key(r));
            }
        }
        write.inserts().forEach(r -> table.put(key(r), r));
        applyMeters(deviceId, write);
    }

    @Override
    public void rewrite(DeviceId deviceId, UpfWrite write) {
        writes.add(deviceId);
        Map<String, FlowRule> table = entries.computeIfAbsent(deviceId, d -> new HashMap<>());
        write.inserts().forEach(r -> table.put(key(r), r));
        applyMeters(deviceId, write);
    }

    private void applyMeters(DeviceId deviceId, UpfWrite write) {
        Map<String, MeterCell> cells = meters.computeIfAbsent(deviceId, d -> new HashMap<>());
        for (MeterCell c : write.meters()) {
            String key = c.meterId() + "[" + c.index() + "]";
            if (c.config().isPresent()) {
                cells.put(key, c);
            } else {
                cells.remove(key);
            }
        }
    }

    int count(DeviceId deviceId) {
        return entries.getOrDefault(deviceId, Map.of()).size();
    }

    long count(DeviceId deviceId, Object table) {
        return entries.getOrDefault(deviceId, Map.of()).values().stream()
                .filter(r -> r.table().equals(table)).count();
    }
}
