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
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.cli.net.PortNumberCompleter;

/**
 * Holds a UE's downlink in a FlowBuf buffer (a pause intent of the UE's
 * address on the port the data network's packets arrive on).
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-pause",
        description = "Holds a UE's downlink in a FlowBuf buffer")
public class UpfPauseCommand extends FlowBufCommand {

    @Argument(index = 0, name = "session", required = true, description = "session id or UE address")
    @Completion(UpfSessionCompleter.class)
    String session;

    @Argument(index = 1, name = "inPort", required = true,
            description = "Port the data network's packets arrive on")
    @Completion(PortNumberCompleter.class)
    String inPort;

    @Override
    protected void run() {
        UpfService upf = service(UpfService.class);
        PduSession s = UpfSessionRemoveCommand.find(upf, session);
        FlowBufIntent intent = upf.pauseDownlink(s.id(), Args.port(inPort));
        if (outputJson()) {
            printJson(FlowBufIntent.class, intent);
            return;
        }
        print("UE %s: downlink held in %s (intent %s)", s.ueAddress(),
              intent.bufferId().map(Object::toString).orElse("-"), intent.id());
    }
}
