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
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferService;

/**
 * Moves a buffer to a state (its vport's mode follows: BUFFERING = RX,
 * SERVING = TX, FORWARDING = RX_TX, STORING/FREE = none).
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffer-move",
        description = "Moves a buffer to a state with the fewest agent calls (sets its vport mode)")
public class BufferMoveCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "bufferId", required = true)
    @Completion(BufferIdCompleter.class)
    String bufferId;

    @Argument(index = 2, name = "state", required = true)
    @Completion(BufferStateCompleter.class)
    String state;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Override
    protected void run() {
        Buffer b = service(BufferService.class).moveBuffer(Args.device(device),
                                                           Args.buffer(bufferId), owner,
                                                           Args.state(state));
        if (outputJson()) {
            printJson(Buffer.class, b);
        } else {
            print("%s is %s (vport %s %s)", b.id().id(), b.state(), b.vport().id(), b.mode());
        }
    }
}
