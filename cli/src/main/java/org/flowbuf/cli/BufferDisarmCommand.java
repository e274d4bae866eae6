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
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.TriggerFire;

/**
 * Disarms the move armed on a trigger buffer (flowbuf-arm).
 */
@Service
@Command(scope = "onos", name = "flowbuf-disarm",
        description = "Disarms the move armed on a trigger buffer")
public class BufferDisarmCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "triggerId", required = true)
    @Completion(BufferIdCompleter.class)
    String triggerId;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Override
    protected void run() {
        Disarmed found = service(BufferService.class).disarm(Args.device(device),
                                                             Args.buffer(triggerId), owner);
        if (found.wasArmed()) {
            print("disarmed");
        } else if (found.fire().isPresent()) {
            TriggerFire fire = found.fire().get();
            print("it had fired: %s, report %s, %d packets purged",
                  fire.moved() ? "moved" : "nothing moved (a vport or the buffer was removed)",
                  fire.reportSync(), fire.purgedPackets());
        } else {
            print("nothing armed");
        }
    }
}
