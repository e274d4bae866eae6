/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbService;

/**
 * Removes a bearer from a gNodeB.
 */
@Service
@Command(scope = "onos", name = "flowbuf-gnb-bearer-remove",
        description = "Removes a bearer from a gNodeB (the bearers after it move up one PDCP SN cell)")
public class GnbBearerRemoveCommand extends FlowBufCommand {

    @Argument(index = 0, name = "deviceId", required = true)
    @Completion(GnbDeviceIdCompleter.class)
    String deviceId;

    @Argument(index = 1, name = "teid", required = true, description = "downlink TEID, decimal or 0x hex")
    @Completion(GnbBearerCompleter.class)
    String teid;

    @Override
    protected void run() {
        GnbBearer gone = service(GnbService.class).removeBearer(
                Args.device(deviceId), UpfSessionAddCommand.number("teid", teid));
        print("removed bearer 0x%s (cell %d, UE %s) from %s", Long.toHexString(gone.teid()),
              gone.cell(), gone.ueMac(), deviceId);
    }
}
