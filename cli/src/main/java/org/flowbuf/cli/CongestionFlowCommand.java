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
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;

import java.util.List;

/**
 * One latency-critical flow: its row, the latest switch-over's delays, its
 * merge buffer and its probes.
 */
@Service
@Command(scope = "onos", name = "flowbuf-congestion-flow",
        description = "Shows a latency-critical flow: paths, last switch-over, merge buffer, probes")
public class CongestionFlowCommand extends FlowBufCommand {

    @Argument(index = 0, name = "id", required = true)
    @Completion(CongestionFlowIdCompleter.class)
    String id;

    @Override
    protected void run() {
        long flowId = Args.id("latency-critical flow", id);
        LatencyCriticalFlow f = service(CongestionService.class).flow(flowId).orElseThrow(
                () -> FlowBufException.notFound("no latency-critical flow %d", flowId));
        if (outputJson()) {
            printJson(LatencyCriticalFlow.class, List.of(f));
            return;
        }
        CongestionFlowsCommand.printHeader(this);
        CongestionFlowsCommand.printRow(this, f);
        print("%s", f.lastSwitchOver().map(s -> "last switch-over at " + s.device() + " ("
                + s.cause() + "): queue " + s.queueUs() + " us, processing " + s.procUs()
                + " us").orElse("no switch-over yet"));
        f.ordered().ifPresent(o -> print("merge buffer at %s: %d released by the end marker, "
                                                 + "%d by the bound, %s", o.mergeSwitch(),
                                         o.markersSeen(), o.boundExpiries(),
                                         o.armed() ? "armed" : "not armed"));
        f.probes().ifPresent(p -> print("probes every %d ms: %d sent, %d lost, %d late, %s",
                                        p.intervalMs(), p.sent(), p.lost(), p.late(),
                                        p.lastDelayUs().isPresent()
                                                ? "last " + p.lastDelayUs().getAsLong() + " us"
                                                : "none back yet"));
    }
}
