/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TableId;
import org.onosproject.net.flow.TrafficSelector;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The flow rules a writer had accepted by each switch and not removed since,
 * one per table entry (table, match, priority; a modify replaces the
 * action): what a switch that restarted lost and is to be given again.
 */
final class WrittenRules {

    private final Map<DeviceId, Map<EntryKey, FlowRule>> rules = new ConcurrentHashMap<>();

    /**
     * Remembers rules their switch accepted (an insert or a modify).
     *
     * @param written the rules, each naming its device
     */
    void accepted(List<FlowRule> written) {
        written.forEach(r -> device(r.deviceId()).put(new EntryKey(r), r));
    }

    /**
     * Forgets rules their switch removed (or never had).
     *
     * @param gone the rules, each naming its device
     */
    void removed(List<FlowRule> gone) {
        gone.forEach(r -> device(r.deviceId()).remove(new EntryKey(r)));
    }

    /**
     * The rules remembered for a device.
     *
     * @param deviceId device
     * @return its rules, in no particular order
     */
    List<FlowRule> of(DeviceId deviceId) {
        return List.copyOf(device(deviceId).values());
    }

    private Map<EntryKey, FlowRule> device(DeviceId deviceId) {
        return rules.computeIfAbsent(deviceId, d -> new ConcurrentHashMap<>());
    }

    /** What P4Runtime identifies a table entry by. */
    private static final class EntryKey {
        private final TableId table;
        private final TrafficSelector match;
        private final int priority;

        EntryKey(FlowRule rule) {
            this.table = rule.table();
            this.match = rule.selector();
            this.priority = rule.priority();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof EntryKey)) {
                return false;
            }
            EntryKey other = (EntryKey) o;
            return priority == other.priority && table.equals(other.table)
                    && match.equals(other.match);
        }

        @Override
        public int hashCode() {
            return Objects.hash(table, match, priority);
        }
    }
}
