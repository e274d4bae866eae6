/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;

import java.util.List;

/**
 * Registers a latency-critical flow between two hosts with a delay budget:
 * a primary and a disjoint backup path installed, thresholds derived.
 */
@Service
@Command(scope = "onos", name = "flowbuf-congestion-register",
        description = "Registers a latency-critical flow (the flow by --src/--dst/--proto/"
                + "--sport/--dport)")
public class CongestionRegisterCommand extends FlowMatchCommand {

    @Argument(index = 0, name = "srcHost", description = "netcfg name or MAC", required = true)
    String srcHost;

    @Argument(index = 1, name = "dstHost", description = "netcfg name or MAC", required = true)
    String dstHost;

    @Argument(index = 2, name = "budgetUs", description = "end-to-end delay budget, µs",
            required = true)
    long budgetUs;

    @Option(name = "--m", description = "consecutive packets over a threshold that mean "
            + "congestion (default 1)")
    long m = 1;

    @Option(name = "--x", description = "thresholds are X times the idle delays (default: "
            + "the netcfg's factor)")
    Double x;

    @Option(name = "--mode", description = "dataplane (default), nocc or probing")
    String mode = "dataplane";

    @Option(name = "--probe-interval-ms", description = "probing: a probe every MS "
            + "(100..60000, default 1000)")
    Long probeIntervalMs;

    @Option(name = "--ordered-switchover", description = "a merge buffer keeps the flow in "
            + "order across a switch-over")
    boolean ordered;

    @Override
    protected void run() {
        CcFlowRequest request = CcFlowRequest.builder().hosts(srcHost, dstHost).filter(filter())
                .budgetUs(budgetUs).m(m).factor(x)
                .mode(Args.choice("--mode", CongestionMode.class, mode))
                .probeIntervalMs(probeIntervalMs).orderedSwitchover(ordered).build();
        LatencyCriticalFlow flow = service(CongestionService.class).register(request);
        if (outputJson()) {
            printJson(LatencyCriticalFlow.class, List.of(flow));
            return;
        }
        CongestionFlowsCommand.printHeader(this);
        CongestionFlowsCommand.printRow(this, flow);
    }
}
