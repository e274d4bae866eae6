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
import org.flowbuf.api.BufferState;

/**
 * Arms a move on the agent: the next packet into the trigger buffer moves
 * another buffer there and then, without a controller round trip.
 */
@Service
@Command(scope = "onos", name = "flowbuf-arm",
        description = "Arms a move: the next packet into <triggerId> moves <bufferId> to "
                + "BUFFERING or FORWARDING on the agent")
public class BufferArmCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "triggerId", required = true)
    @Completion(BufferIdCompleter.class)
    String triggerId;

    @Argument(index = 2, name = "bufferId", required = true)
    @Completion(BufferIdCompleter.class)
    String bufferId;

    @Argument(index = 3, name = "state", required = true)
    @Completion(BufferStateCompleter.class)
    String state;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Option(name = "--purge-to-report",
            description = "first drop what the buffer holds up to the packet the trigger "
                    + "packet's receive report names")
    boolean purgeToReport;

    @Override
    protected void run() {
        BufferState to = Args.state(state);
        service(BufferService.class).armMove(Args.device(device), Args.buffer(triggerId),
                                             Args.buffer(bufferId), owner, to, purgeToReport);
        print("the next packet into %s moves %s to %s%s", triggerId, bufferId, to,
              purgeToReport ? ", purged to its report first" : "");
    }
}
