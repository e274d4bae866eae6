/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfService;

import java.util.List;

/**
 * Lists each device with UPF sessions: how many, and how many downlinks are paused.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-devices",
        description = "Lists the UPF's sessions and paused downlinks per device")
public class UpfDevicesCommand extends FlowBufCommand {

    @Override
    protected void run() {
        List<UpfDeviceSummary> devices = service(UpfService.class).deviceSummaries();
        if (outputJson()) {
            printJson(UpfDeviceSummary.class, devices);
            return;
        }
        print("%-20s %-10s %s", "device", "sessions", "pausedDownlinks");
        devices.forEach(d -> print("%-20s %-10d %d", d.deviceId(), d.sessions(), d.pausedDownlinks()));
    }
}
