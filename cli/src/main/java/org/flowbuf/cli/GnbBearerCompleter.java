/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.gnb.GnbService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes bearers: the downlink TEIDs of every gNodeB's bearers.
 */
@Service
public class GnbBearerCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(GnbService.class).devices().stream()
                .flatMap(d -> d.bearers().stream()).map(b -> Long.toString(b.teid()))
                .distinct().sorted().collect(Collectors.toList());
    }
}
