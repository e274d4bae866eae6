/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists the latency-critical flows: mode, primary and backup path (each
 * switch and the port the flow leaves by), switch-overs, merge buffer.
 */
@Service
@Command(scope = "onos", name = "flowbuf-congestion-flows",
        description = "Lists the latency-critical flows: mode, paths, switch-overs")
public class CongestionFlowsCommand extends FlowBufCommand {

    static final String FORMAT = "%-4s %-9s %-44s %-44s %-11s %s";

    @Override
    protected void run() {
        List<LatencyCriticalFlow> flows = service(CongestionService.class).flows().stream()
                .sorted(Comparator.comparingLong(LatencyCriticalFlow::id))
                .collect(Collectors.toList());
        if (outputJson()) {
            printJson(LatencyCriticalFlow.class, flows);
            return;
        }
        printHeader(this);
        flows.forEach(f -> printRow(this, f));
    }

    static void printHeader(FlowBufCommand command) {
        command.print(FORMAT, "id", "mode", "primary", "backup", "switchOvers", "ordered");
    }

    static void printRow(FlowBufCommand command, LatencyCriticalFlow f) {
        command.print(FORMAT, f.id(), f.request().mode(), path(f.primary()),
                      f.backup().map(CongestionFlowsCommand::path).orElse("-"),
                      f.switchOverCount(), f.ordered().map(o -> o.mergeSwitch() + " "
                              + o.markersSeen() + "/" + o.boundExpiries()
                              + (o.armed() ? "" : " (not armed)")).orElse("-"));
    }

    // device:s1/2 > device:s2/2 > ...: each switch and the port the flow leaves by.
    static String path(CcPath path) {
        return path.hops().stream().map(h -> h.device() + "/" + h.outPort())
                .collect(Collectors.joining(" > "));
    }
}
