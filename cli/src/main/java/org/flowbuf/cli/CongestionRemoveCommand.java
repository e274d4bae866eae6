/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.congestion.CongestionService;

/**
 * Removes a latency-critical flow: its entries on every switch of both
 * paths, its probes and its merge buffer.
 */
@Service
@Command(scope = "onos", name = "flowbuf-congestion-remove",
        description = "Removes a latency-critical flow")
public class CongestionRemoveCommand extends FlowBufCommand {

    @Argument(index = 0, name = "id", required = true)
    @Completion(CongestionFlowIdCompleter.class)
    String id;

    @Override
    protected void run() {
        long flowId = Args.id("latency-critical flow", id);
        service(CongestionService.class).remove(flowId);
        print("removed latency-critical flow %d", flowId);
    }
}
