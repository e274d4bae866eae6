/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfService;

/**
 * Replays a UE's held downlink, in order, into the UPF.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-resume",
        description = "Replays a UE's held downlink, in order, into the UPF")
public class UpfResumeCommand extends FlowBufCommand {

    @Argument(name = "session", required = true, description = "session id or UE address")
    @Completion(UpfSessionCompleter.class)
    String session;

    @Override
    protected void run() {
        UpfService upf = service(UpfService.class);
        PduSession s = UpfSessionRemoveCommand.find(upf, session);
        Buffer buffer = upf.resumeDownlink(s.id());
        if (outputJson()) {
            printJson(Buffer.class, buffer);
            return;
        }
        print("UE %s: %s replays %d packets (%s)", s.ueAddress(), buffer.id(),
              buffer.occupancyPackets(), buffer.state());
    }
}
