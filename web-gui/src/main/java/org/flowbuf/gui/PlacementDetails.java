/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.onosproject.net.DeviceId;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The hybrid UPF's placement in a device's details panel: on the fast-path
 * switch, its slow path, how much of its table the promoted UEs take and
 * each placed UE (path, rate, promotions, demotions), the fast ones first;
 * on the slow-path switch, which fast path it serves.
 */
final class PlacementDetails {

    /** UEs listed at most; the REST API and the CLI list every one. */
    static final int MAX_ROWS = 20;

    private PlacementDetails() {
    }

    /**
     * Adds the placement to a device's panel (nothing when the device is
     * neither path).
     *
     * @param pp        the panel
     * @param placement the placement service
     * @param device    the device
     */
    static void addTo(PropertyPanel pp, HybridPlacementService placement, DeviceId device) {
        HybridSettings s = placement.settings();
        if (!s.enabled()) {
            return;
        }
        DeviceId fast = s.fastDevice().orElseThrow();
        DeviceId slow = s.slowDevice().orElseThrow();
        if (device.equals(slow)) {
            pp.addSeparator();
            pp.addProp("flowbuf-hybrid", "Hybrid UPF", "slow path of " + fast);
            return;
        }
        if (!device.equals(fast)) {
            return;
        }
        List<UePlacement> ues = placement.placements().stream()
                .sorted(Comparator.comparing((UePlacement u) -> u.path() != UePlacement.Path.FAST)
                                .thenComparing(u -> -u.rateBps())
                                .thenComparing(UePlacement::ueAddress))
                .collect(Collectors.toList());
        long onFast = ues.stream().filter(u -> u.path() == UePlacement.Path.FAST || u.moving())
                .count();
        pp.addSeparator();
        pp.addProp("flowbuf-hybrid", "Hybrid UPF", "fast path; slow path " + slow + " by port "
                + s.slowPort().toLong());
        pp.addProp("flowbuf-hybrid-table", "Fast table", onFast + " of "
                + s.fastTableBudget() + " sessions");
        for (UePlacement u : ues.subList(0, Math.min(MAX_ROWS, ues.size()))) {
            pp.addProp("flowbuf-ue-" + u.ueAddress(), u.ueAddress().toString(), row(u));
        }
        if (ues.size() > MAX_ROWS) {
            pp.addProp("flowbuf-hybrid-more", "More", (ues.size() - MAX_ROWS)
                    + " UEs (upf/placement lists all)");
        }
    }

    /**
     * A UE's line: "FAST, 2.40 Mbit/s, 1 promotion, 0 demotions" (", moving"
     * while a move is under way).
     *
     * @param u the UE's placement
     * @return the line
     */
    static String row(UePlacement u) {
        return u.path() + (u.moving() ? " (moving)" : "") + ", " + rate(u.rateBps()) + ", "
                + count(u.promotions(), "promotion") + ", " + count(u.demotions(), "demotion");
    }

    /**
     * A rate in bit/s as people read it.
     *
     * @param bps bit/s
     * @return e.g. "2.40 Mbit/s"
     */
    static String rate(long bps) {
        if (bps >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f Gbit/s", bps / 1e9);
        }
        if (bps >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.2f Mbit/s", bps / 1e6);
        }
        if (bps >= 1000L) {
            return String.format(Locale.ROOT, "%.1f kbit/s", bps / 1e3);
        }
        return bps + " bit/s";
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
