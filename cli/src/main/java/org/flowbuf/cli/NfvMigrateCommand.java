/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;

/**
 * NFV flow migration: begin (hold the flow), complete (release it into the
 * new instance) or abort (release it back), or list migrations.
 */
@Service
@Command(scope = "onos", name = "flowbuf-nfv-migrate",
        description = "NFV flow migration: begin <device> <inPort> [flow], "
                + "complete|abort <id> <port>, list")
public class NfvMigrateCommand extends AppActionCommand {

    @Override
    protected void run() {
        NfvMigrationService nfv = service(NfvMigrationService.class);
        switch (action) {
            case "list":
                printListing(NfvMigration.class, nfv.migrations(), this::printMigration);
                return;
            case "begin":
                printMigration(nfv.begin(Args.device(deviceOrId), Args.port(port), filter()));
                return;
            case "complete":
                printMigration(nfv.complete(id(), Args.port(port)));
                return;
            case "abort":
                printMigration(nfv.abort(id(), Args.port(port)));
                return;
            default:
                throw unknownAction("begin, complete, abort or list");
        }
    }

    private long id() {
        return Args.id("migration", deviceOrId);
    }

    private void printMigration(NfvMigration m) {
        if (json()) {
            printJson(NfvMigration.class, m);
        } else {
            print("%d %s %s in-port %s buffer %s %s%s", m.id(), m.state(), m.deviceId(),
                  m.inPort(), m.buffer().id(), m.flow(),
                  m.releasedTo().map(p -> " -> port " + p).orElse(""));
        }
    }
}
