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
 * resume_flow: replays a paused flow in order towards a port.
 */
@Service
@Command(scope = "onos", name = "flowbuf-resume",
        description = "Resumes a paused flow towards a port, in order, without loss")
public class ResumeCommand extends FlowFilterCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "outPort", description = "Port the flow leaves on",
            required = true)
    @Completion(PortNumberCompleter.class)
    String outPort;

    @Override
    protected void run() {
        FlowBufIntent intent = service(FlowBufIntentService.class).resume(
                Args.device(device), Args.port(outPort), filter(), Args.optionalBuffer(buffer),
                owner);
        IntentsListCommand.printIntent(this, intent);
    }
}
