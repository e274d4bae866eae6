/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/** Completes the ids of the latency-critical flows. */
@Service
public class CongestionFlowIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(CongestionService.class).flows().stream().map(LatencyCriticalFlow::id)
                .sorted().map(String::valueOf).collect(Collectors.toList());
    }
}
