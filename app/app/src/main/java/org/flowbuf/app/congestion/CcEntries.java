/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CongestionMode;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.TableId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The table entries a {@link CcLayout} needs on each switch, and the
 * per-switch writes that turn one layout into another.
 */
final class CcEntries {

    private CcEntries() {
    }

    /**
     * Every entry of a layout, by switch (the source switch first).
     *
     * @param rules  the rule builder
     * @param layout the layout
     * @return entries per switch
     */
    static Map<DeviceId, List<FlowRule>> of(CcRules rules, CcLayout layout) {
        Map<DeviceId, List<FlowRule>> entries = new LinkedHashMap<>();
        DeviceId source = layout.source();
        List<FlowRule> here = new ArrayList<>();
        here.add(rules.track(source, layout.filter(), layout.index(), layout.generation()));
        here.add(rules.path(source, layout.index(), layout.slot(),
                            layout.primary().first().outPort(), layout.dstMac()));
        layout.backup().ifPresent(b -> {
            int other = 1 - layout.slot();
            here.add(rules.path(source, layout.index(), other, b.first().outPort(),
                                layout.dstMac()));
            if (layout.mode() == CongestionMode.DATAPLANE) {
                here.add(rules.alternate(source, layout.index(), other));
            }
        });
        layout.sink().ifPresent(s -> here.add(rules.ordered(source, layout.index())));
        entries.put(source, here);
        forwarders(rules, layout, layout.primary(), entries);
        layout.backup().ifPresent(b -> forwarders(rules, layout, b, entries));
        layout.sink().ifPresent(s -> entries.get(layout.merge()).add(
                rules.markerSink(layout.merge(), layout.index(), s)));
        layout.thresholds().forEach((device, t) -> {
            if (entries.containsKey(device)) {
                entries.get(device).add(rules.thresholds(device, layout.index(), t));
            }
        });
        if (layout.mode() == CongestionMode.PROBING && entries.containsKey(layout.destination())) {
            entries.get(layout.destination()).add(
                    rules.probePunt(layout.destination(), layout.index()));
        }
        return entries;
    }

    private static void forwarders(CcRules rules, CcLayout layout, CcPath path,
                                   Map<DeviceId, List<FlowRule>> entries) {
        for (CcHop hop : path.rest()) {
            List<FlowRule> here = new ArrayList<>();
            here.add(rules.track(hop.device(), layout.filter(), layout.index(),
                                 layout.generation()));
            here.add(rules.path(hop.device(), layout.index(), 0, hop.outPort(), layout.dstMac()));
            // Disjoint paths share only the destination switch, with the same out port.
            entries.putIfAbsent(hop.device(), here);
        }
    }

    /**
     * The writes that take the switches from one set of entries to another:
     * per switch, the entries to delete, insert and modify.
     *
     * @param from  entries per switch now
     * @param to    entries per switch wanted
     * @return writes per switch, only where something changes
     */
    static Map<DeviceId, CcWrite> diff(Map<DeviceId, List<FlowRule>> from,
                                       Map<DeviceId, List<FlowRule>> to) {
        Map<DeviceId, CcWrite> writes = new LinkedHashMap<>();
        Set<DeviceId> devices = new LinkedHashSet<>(to.keySet());
        devices.addAll(from.keySet());
        for (DeviceId device : devices) {
            Map<Key, FlowRule> before = byKey(from.getOrDefault(device, List.of()));
            Map<Key, FlowRule> after = byKey(to.getOrDefault(device, List.of()));
            CcWrite write = new CcWrite();
            before.forEach((k, r) -> {
                if (!after.containsKey(k)) {
                    write.removes().add(r);
                }
            });
            after.forEach((k, r) -> {
                FlowRule old = before.get(k);
                if (old == null) {
                    write.inserts().add(r);
                } else if (!old.treatment().equals(r.treatment())) {
                    write.modifies().add(r);
                }
            });
            if (!write.isEmpty()) {
                writes.put(device, write);
            }
        }
        return writes;
    }

    private static Map<Key, FlowRule> byKey(List<FlowRule> rules) {
        Map<Key, FlowRule> keyed = new LinkedHashMap<>();
        rules.forEach(r -> keyed.put(new Key(r.table(), r.selector()), r));
        return keyed;
    }

    /** An entry's identity on a switch: its table and match. */
    private static final class Key {
        private final TableId table;
        private final TrafficSelector match;

        Key(TableId table, TrafficSelector match) {
            this.table = table;
            this.match = match;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && Objects.equals(((Key) o).table, table)
                    && ((Key) o).match.equals(match);
        }

        @Override
        public int hashCode() {
            return Objects.hash(table, match);
        }
    }
}
