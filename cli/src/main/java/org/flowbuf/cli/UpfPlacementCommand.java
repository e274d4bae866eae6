/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.UePlacement;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Lists where the hybrid UPF runs each UE's downlink (fast or slow path),
 * its rate on the fast path, its promotions and demotions; or one UE's.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-placement",
        description = "Lists each UE's hybrid UPF path (FAST/SLOW), rate, promotions and demotions")
public class UpfPlacementCommand extends FlowBufCommand {

    static final String FORMAT = "%-15s %-5s %-6s %14s %10s %9s %12s";

    @Argument(name = "ueAddress", description = "only this UE (SLOW with no moves when it has a "
            + "session on the slow path and was never promoted)")
    @Completion(PlacementUeCompleter.class)
    String ueAddress;

    @Override
    protected void run() {
        HybridPlacementService placement = service(HybridPlacementService.class);
        List<UePlacement> shown = ueAddress == null ? sorted(placement.placements())
                : List.of(one(placement, ueAddress));
        if (ueAddress != null && json()) {
            printJson(UePlacement.class, shown.get(0));
            return;
        }
        if (!json()) {
            if (!placement.settings().enabled()) {
                print("hybrid placement is off (set it with flowbuf-upf-placement-settings)");
            }
            print(FORMAT, "ue", "path", "moving", "rate (bit/s)", "promotions", "demotions",
                  "last move us");
        }
        printListing(UePlacement.class, shown, p -> print(
                FORMAT, p.ueAddress(), p.path(), p.moving() ? "yes" : "no", p.rateBps(),
                p.promotions(), p.demotions(), p.lastMoveMicros()));
    }

    private static List<UePlacement> sorted(List<UePlacement> placements) {
        List<UePlacement> out = new ArrayList<>(placements);
        out.sort(Comparator.comparing(UePlacement::ueAddress));
        return out;
    }

    /**
     * One UE's placement.
     *
     * @param placement the placement service
     * @param text      the UE's address
     * @return its placement
     * @throws IllegalArgumentException for a malformed address
     * @throws FlowBufException         NOT_FOUND when the UE has no session on the slow path
     */
    static UePlacement one(HybridPlacementService placement, String text) {
        Ip4Address ue = UpfSessionAddCommand.address("UE", text);
        return placement.placement(ue).orElseThrow(
                () -> FlowBufException.notFound("UE %s has no session on the slow path", ue));
    }
}
