/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.ConnectionlessService;

/**
 * Connectionless uploads: request, stored, download, release, list.
 */
@Service
@Command(scope = "onos", name = "flowbuf-cc-upload",
        description = "Connectionless uploads: request <device> <sensorPort> [flow], "
                + "stored|release <id>, download <id> <collectorPort>, list")
public class CcUploadCommand extends AppActionCommand {

    @Override
    protected void run() {
        ConnectionlessService cc = service(ConnectionlessService.class);
        switch (action) {
            case "list":
                printListing(CcUpload.class, cc.uploads(), this::printUpload);
                return;
            case "request":
                printUpload(cc.requestUpload(Args.device(deviceOrId), Args.port(port), filter()));
                return;
            case "stored":
                printUpload(cc.stored(id()));
                return;
            case "download":
                printUpload(cc.download(id(), Args.port(port)));
                return;
            case "release":
                printUpload(cc.release(id()));
                return;
            default:
                throw unknownAction("request, stored, download, release or list");
        }
    }

    private long id() {
        return Args.id("upload", deviceOrId);
    }

    private void printUpload(CcUpload u) {
        if (json()) {
            printJson(CcUpload.class, u);
        } else {
            print("%d %s %s sensor-port %s buffer %s %s%s", u.id(), u.state(), u.deviceId(),
                  u.sensorPort(), u.buffer().id(), u.flow(),
                  u.collectorPort().map(p -> " -> port " + p).orElse(""));
        }
    }
}
