/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferService;

/**
 * Removes a buffer and frees its vport (unbind included).
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffer-remove",
        description = "Removes a buffer; it must be FREE unless --discard")
public class BufferRemoveCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "bufferId", required = true)
    @Completion(BufferIdCompleter.class)
    String bufferId;

    @Option(name = "--discard", description = "Drop the packets it holds")
    boolean discard;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Override
    protected void run() {
        service(BufferService.class).removeBuffer(Args.device(device), Args.buffer(bufferId),
                                                  owner, discard);
        print("removed %s", bufferId);
    }
}
