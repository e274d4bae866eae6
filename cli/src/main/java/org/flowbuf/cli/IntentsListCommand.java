/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;

import java.util.List;

/**
 * Lists pause and resume intents.
 */
@Service
@Command(scope = "onos", name = "flowbuf-intents", description = "Lists pause and resume intents")
public class IntentsListCommand extends FlowBufCommand {

    static final String FORMAT = "%-5s %-6s %-12s %-5s %-10s %-12s %s";

    @Override
    protected void run() {
        List<FlowBufIntent> intents = List.copyOf(service(FlowBufIntentService.class).getIntents());
        if (outputJson()) {
            printJson(FlowBufIntent.class, intents);
            return;
        }
        print(FORMAT, "id", "type", "device", "port", "state", "buffer", "flow");
        intents.forEach(i -> printRow(this, i));
    }

    static void printIntent(FlowBufCommand command, FlowBufIntent intent) {
        if (command.json()) {
            command.printJson(FlowBufIntent.class, intent);
        } else {
            printRow(command, intent);
        }
    }

    private static void printRow(FlowBufCommand command, FlowBufIntent i) {
        command.print(FORMAT, i.id().id(), i.type(), i.deviceId(), i.port().toLong(), i.state(),
                      i.bufferId().map(b -> b.id()).orElse("-"),
                      i.filter() + i.failure().map(f -> " FAILED: " + f).orElse(""));
    }
}
