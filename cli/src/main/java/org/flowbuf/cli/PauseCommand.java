/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufIntent;
import org.onosproject.cli.net.PortNumberCompleter;
import org.flowbuf.api.FlowBufIntentService;

/**
 * pause_flow: steers a flow arriving on a port into a buffer and holds it.
 */
@Service
@Command(scope = "onos", name = "flowbuf-pause",
        description = "Pauses a flow: holds it in a buffer (given, reused or allocated)")
public class PauseCommand extends FlowFilterCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "inPort", description = "Port the flow arrives on",
            required = true)
    @Completion(PortNumberCompleter.class)
    String inPort;

    @Override
    protected void run() {
        FlowBufIntent intent = service(FlowBufIntentService.class).pause(
                Args.device(device), Args.port(inPort), filter(), Args.optionalBuffer(buffer),
                owner);
        IntentsListCommand.printIntent(this, intent);
    }
}
