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
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.LmmService;
import org.onosproject.net.ConnectPoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * LTE mobility management handoffs.
 */
@Service
@Command(scope = "onos", name = "flowbuf-lmm",
        description = "LMM handoffs: list; start <ue-address> --anchor IN,TO_SOURCE,TO_TARGET "
                + "--source IN,X2 --target IN,X2,UE [--no-buffering]; attach <id>")
public class LmmHandoffCommand extends FlowBufCommand {

    @Argument(index = 0, name = "action", required = true, description = "list, start or attach")
    String action;

    @Argument(index = 1, name = "ueOrId", description = "the UE's IPv4 address (start) or a "
            + "handoff id (attach)")
    String ueOrId;

    @Option(name = "--anchor", description = "anchor ports: in,toSource,toTarget "
            + "(e.g. device:sa/1,device:sa/2,device:sa/3)")
    String anchor;

    @Option(name = "--source", description = "source eNB ports: in,x2")
    String source;

    @Option(name = "--target", description = "target eNB ports: in,x2,ue")
    String target;

    @Option(name = "--no-buffering", description = "the paper's baseline: only the anchor switches")
    boolean noBuffering;

    @Option(name = "--buffering", description = "flowbuf (default), none, or controller (the "
            + "paper's controller-buffering baseline)")
    String buffering;

    @Override
    protected void run() {
        LmmService lmm = service(LmmService.class);
        switch (action) {
            case "list":
                printListing(LmmHandoff.class, lmm.handoffs(), this::printHandoff);
                return;
            case "start":
                printHandoff(lmm.start(plan()));
                return;
            case "attach":
                printHandoff(lmm.attach(Args.id("handoff", ueOrId)));
                return;
            default:
                throw new IllegalArgumentException("action must be list, start or attach, not "
                                                           + action);
        }
    }

    private HandoffPlan plan() {
        if (ueOrId == null) {
            throw new IllegalArgumentException("start needs the UE's IPv4 address");
        }
        List<ConnectPoint> a = Args.connectPoints("--anchor", anchor, 3);
        List<ConnectPoint> s = Args.connectPoints("--source", source, 2);
        List<ConnectPoint> t = Args.connectPoints("--target", target, 3);
        FlowFilter downlink = FlowFilter.builder().ipv4Dst(Args.prefix("ue-address", ueOrId))
                .build();
        return HandoffPlan.builder().downlink(downlink).buffering(bufferingMode())
                .anchor(a.get(0), a.get(1), a.get(2)).source(s.get(0), s.get(1))
                .target(t.get(0), t.get(1), t.get(2)).build();
    }

    private HandoffPlan.Buffering bufferingMode() {
        if (buffering == null) {
            return noBuffering ? HandoffPlan.Buffering.NONE : HandoffPlan.Buffering.FLOWBUF;
        }
        if (noBuffering) {
            throw new IllegalArgumentException("give --no-buffering or --buffering, not both");
        }
        try {
            return HandoffPlan.Buffering.valueOf(buffering.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--buffering is flowbuf, none or controller, not "
                                                       + buffering);
        }
    }

    private void printHandoff(LmmHandoff h) {
        if (json()) {
            printJson(LmmHandoff.class, h);
            return;
        }
        List<String> buffers = new ArrayList<>();
        h.sourceBuffer().ifPresent(b -> buffers.add(b.id()));
        h.forwardedBuffer().ifPresent(b -> buffers.add(b.id()));
        h.newPathBuffer().ifPresent(b -> buffers.add(b.id()));
        print("%d %s %s -> %s buffers %s markers %d%s", h.id(), h.state(), h.plan().source(),
              h.plan().target(), buffers.isEmpty() ? "-" : String.join(",", buffers),
              h.markerReports(), h.failure().map(f -> " (" + f + ")").orElse(""));
    }
}
