/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferService;

import java.time.Instant;
import java.util.List;

/**
 * Shows a buffer's latest events.
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffer-events",
        description = "Shows a buffer's latest events, oldest first")
public class BufferEventsCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "bufferId", required = true)
    @Completion(BufferIdCompleter.class)
    String bufferId;

    @Override
    protected void run() {
        List<BufferEvent> events = service(BufferService.class)
                .getEvents(Args.device(device), Args.buffer(bufferId));
        if (outputJson()) {
            printJson(BufferEvent.class, events);
            return;
        }
        for (BufferEvent e : events) {
            print("%s %-22s %s %s held %d", Instant.ofEpochMilli(e.time()), e.type(),
                  e.subject().state(), e.subject().mode(), e.subject().occupancyPackets());
        }
    }
}
