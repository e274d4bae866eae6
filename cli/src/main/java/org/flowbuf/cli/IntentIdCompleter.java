/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufIntentService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes ids of pause and resume intents.
 */
@Service
public class IntentIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(FlowBufIntentService.class).getIntents().stream().map(i -> Long.toString(i.id().id()))
                .sorted().collect(Collectors.toList());
    }
}
