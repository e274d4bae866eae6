/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.HostId;
import org.onosproject.ui.topo.DeviceHighlight;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.HostHighlight;
import org.onosproject.ui.topo.NodeBadge;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the overlay paints: each FlowBuf device gets a badge with its number
 * of buffers (a warning when one is over {@value #FULL_PERCENT}% full; its
 * message adds the UPF's sessions and paused downlinks there), and
 * the host a paused flow comes from gets a "paused" badge.
 */
final class BufferHighlights {

    /** Fill level from which a device's badge warns. */
    static final int FULL_PERCENT = 80;

    private BufferHighlights() {
    }

    static Highlights of(Map<DeviceId, Collection<Buffer>> buffers,
                         Collection<FlowBufIntent> intents, List<UpfDeviceSummary> upf,
                         Function<ConnectPoint, Set<HostId>> hostsAt) {
        Highlights highlights = new Highlights();
        Map<DeviceId, UpfDeviceSummary> upfByDevice = upf.stream()
                .collect(Collectors.toMap(UpfDeviceSummary::deviceId, u -> u));
        buffers.forEach((device, list) -> highlights.add(
                device(device, list, Optional.ofNullable(upfByDevice.get(device)))));
        for (FlowBufIntent intent : intents) {
            if (isHolding(intent, buffers.getOrDefault(intent.deviceId(), Set.of()))) {
                for (HostId host : hostsAt.apply(new ConnectPoint(intent.deviceId(), intent.port()))) {
                    HostHighlight h = new HostHighlight(host.toString());
                    h.setBadge(NodeBadge.text(NodeBadge.Status.WARN, "II", "flow paused in "
                            + intent.bufferId().map(Object::toString).orElse("a buffer")));
                    highlights.add(h);
                }
            }
        }
        return highlights;
    }

    private static DeviceHighlight device(DeviceId device, Collection<Buffer> list,
                                          Optional<UpfDeviceSummary> upf) {
        int fullest = list.stream().mapToInt(BufferHighlights::fillPercent).max().orElse(0);
        long held = list.stream().mapToLong(Buffer::occupancyPackets).sum();
        DeviceHighlight d = new DeviceHighlight(device.toString());
        NodeBadge.Status status = fullest >= FULL_PERCENT ? NodeBadge.Status.WARN
                : NodeBadge.Status.INFO;
        d.setBadge(NodeBadge.number(status, list.size(), list.size() + " buffers, " + held
                + " packets held, fullest " + fullest + "%"
                + upf.map(u -> "; UPF: " + u.sessions() + " sessions, " + u.pausedDownlinks()
                        + " downlinks paused").orElse("")));
        return d;
    }

    /**
     * Percent of its packet capacity a buffer holds.
     *
     * @param b the buffer
     * @return 0-100 (0 when it has no packet limit)
     */
    static int fillPercent(Buffer b) {
        long capacity = b.spec().capacityPackets();
        return capacity == 0 ? 0 : (int) Math.min(100, b.occupancyPackets() * 100 / capacity);
    }

    private static boolean isHolding(FlowBufIntent intent, Collection<Buffer> buffers) {
        return intent.type() == FlowBufIntent.Type.PAUSE
                && intent.state() == FlowBufIntent.State.INSTALLED
                && buffers.stream().anyMatch(b -> intent.bufferId().equals(Optional.of(b.id()))
                && b.state() == BufferState.BUFFERING);
    }
}
