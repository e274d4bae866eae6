/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.onosproject.net.ConnectPoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fast mobility management sessions.
 */
@Service
@Command(scope = "onos", name = "flowbuf-fmm",
        description = "FMM sessions: list; open <ue-address> --anchor-in IN --cell ANCHOR,IN,UE "
                + "(one per eNB) --serving DEVICE [--window N] [--attach-signal-port P "
                + "[--ue-reports]]; "
                + "handoff <id> <target-device>; "
                + "attach <id>; close <id>")
public class FmmSessionCommand extends FlowBufCommand {

    private static final int UDP = 17;

    @Argument(index = 0, name = "action", required = true,
            description = "list, open, handoff, attach or close")
    String action;

    @Argument(index = 1, name = "ueOrId", description = "the UE's IPv4 address (open) or a "
            + "session id")
    String ueOrId;

    @Argument(index = 2, name = "target", description = "handoff: the eNB the UE goes to")
    String target;

    @Option(name = "--anchor-in", description = "anchor port the downlink arrives on "
            + "(e.g. device:sa/1)")
    String anchorIn;

    @Option(name = "--cell", multiValued = true, description = "an eNB: anchor port towards "
            + "it, its port from the anchor, its port towards the UE (e.g. "
            + "device:sa/2,device:s1/1,device:s1/2); once per eNB")
    List<String> cells;

    @Option(name = "--serving", description = "the eNB serving the UE now")
    String serving;

    @Option(name = "--window", description = "packets each holding eNB keeps (default "
            + FmmPlan.DEFAULT_WINDOW_PACKETS + ")")
    int window = FmmPlan.DEFAULT_WINDOW_PACKETS;

    @Option(name = "--attach-signal-port", description = "UDP port of the UE's attach "
            + "datagram: the target eNB's agent releases on it (default: the attach call does)")
    Integer attachSignalPort;

    @Option(name = "--ue-reports", description = "the UE also sends its datagram on the radio "
            + "it leaves (the source's agent holds there), and each carries what it received "
            + "last (the target's agent drops that much, then releases); needs "
            + "--attach-signal-port")
    boolean ueReports;

    @Override
    protected void run() {
        FmmService fmm = service(FmmService.class);
        switch (action) {
            case "list":
                printListing(FmmSession.class, fmm.sessions(), this::printSession);
                return;
            case "open":
                printSession(fmm.open(plan()));
                return;
            case "handoff":
                if (target == null) {
                    throw new IllegalArgumentException("handoff needs a session id and a target "
                                                               + "eNB");
                }
                printSession(fmm.handoff(sessionId(), Args.device(target)));
                return;
            case "attach":
                printSession(fmm.attach(sessionId()));
                return;
            case "close":
                printSession(fmm.close(sessionId()));
                return;
            default:
                throw new IllegalArgumentException("action must be list, open, handoff, attach "
                                                           + "or close, not " + action);
        }
    }

    private long sessionId() {
        if (ueOrId == null) {
            throw new IllegalArgumentException(action + " needs a session id");
        }
        return Args.id("session", ueOrId);
    }

    private FmmPlan plan() {
        if (ueOrId == null) {
            throw new IllegalArgumentException("open needs the UE's IPv4 address");
        }
        if (serving == null) {
            throw new IllegalArgumentException("open needs --serving, the eNB serving the UE");
        }
        ConnectPoint in = Args.connectPoints("--anchor-in", anchorIn, 1).get(0);
        List<FmmPlan.Cell> planCells = new ArrayList<>();
        for (String cell : cells == null ? List.<String>of() : cells) {
            List<ConnectPoint> ports = Args.connectPoints("--cell", cell, 3);
            planCells.add(new FmmPlan.Cell(ports.get(0), ports.get(1), ports.get(2)));
        }
        FlowFilter downlink = FlowFilter.builder().ipv4Dst(Args.prefix("ue-address", ueOrId))
                .build();
        return new FmmPlan(downlink, in, planCells, Args.device(serving), window,
                           attachSignal(downlink), ueReports);
    }

    // The UE's attach datagram: UDP from its address to the given port.
    private Optional<FlowFilter> attachSignal(FlowFilter downlink) {
        if (attachSignalPort == null) {
            return Optional.empty();
        }
        return Optional.of(FlowFilter.builder().ipv4Src(downlink.ipv4Dst().orElseThrow())
                                   .ipProto(UDP).l4DstPort(attachSignalPort).build());
    }

    private void printSession(FmmSession s) {
        if (json()) {
            printJson(FmmSession.class, s);
            return;
        }
        FmmSession.Counters c = s.counters();
        print("%d %s serving %s%s group %d handoffs %d unsynced %d purged %d released-on-signal %d "
                      + "held-on-signal %d%s",
              s.id(), s.state(), s.serving(), s.target().map(t -> " -> " + t).orElse(""),
              s.multicastGroup(), c.handoffs(), c.unsynced(), c.purgedPackets(),
              c.releasedOnSignal(), c.heldOnSignal(),
              s.failure().map(f -> " (" + f + ")").orElse(""));
    }
}
