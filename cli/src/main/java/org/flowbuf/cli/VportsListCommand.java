/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.Vport;

import java.util.List;

/**
 * Lists a device's vports. Vports are configured per device (netcfg); a
 * buffer binds one when it is created, and its mode follows the buffer's
 * state (flowbuf-buffer-move).
 */
@Service
@Command(scope = "onos", name = "flowbuf-vports",
        description = "Lists the vports of a device: switch port, bound buffer, mode")
public class VportsListCommand extends FlowBufCommand {

    @Argument(name = "device", description = "Device id", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Override
    protected void run() {
        List<Vport> vports = service(BufferService.class).getVports(Args.device(device));
        if (outputJson()) {
            printJson(Vport.class, vports);
            return;
        }
        print("%-12s %6s  %-16s %s", "vport", "port", "buffer", "mode");
        for (Vport v : vports) {
            print("%-12s %6d  %-16s %s", v.id().id(), v.switchPort(),
                  v.buffer().map(b -> b.id()).orElse("-"), v.mode());
        }
    }
}
