/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfService;

import java.util.Optional;

/**
 * Removes a PDU session, by id or by its UE's address.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-session-remove",
        description = "Removes a PDU session, by id or by its UE's address")
public class UpfSessionRemoveCommand extends FlowBufCommand {

    @Argument(name = "session", required = true, description = "session id or UE address")
    @Completion(UpfSessionCompleter.class)
    String session;

    @Override
    protected void run() {
        UpfService upf = service(UpfService.class);
        PduSession found = find(upf, session);
        upf.removeSession(found.id());
        print("removed session %d (UE %s)", found.id(), found.ueAddress());
    }

    /**
     * A session by id, or by its UE's address when the key has dots.
     *
     * @param upf the UPF service
     * @param key session id or UE address
     * @return the session
     * @throws FlowBufException NOT_FOUND when there is none
     */
    static PduSession find(UpfService upf, String key) {
        if (key.contains(".")) {
            return upf.session(Optional.empty(), UpfSessionAddCommand.address("UE", key))
                    .orElseThrow(() -> FlowBufException.notFound("no session of UE %s", key));
        }
        long id = UpfSessionAddCommand.number("session id", key);
        return upf.session(id).orElseThrow(() -> FlowBufException.notFound("no session %d", id));
    }
}
