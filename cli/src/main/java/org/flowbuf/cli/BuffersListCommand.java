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
import org.flowbuf.api.BufferService;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Lists buffers with state, vport, mode and occupancy.
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffers",
        description = "Lists FlowBuf buffers (all devices, or one)")
public class BuffersListCommand extends FlowBufCommand {

    @Argument(name = "device", description = "Device id (default: every FlowBuf device)")
    @Completion(DeviceIdCompleter.class)
    String device;

    static final String FORMAT = "%-16s %-16s %-10s %-8s %-6s %10s  %s";

    @Override
    protected void run() {
        BufferService buffers = service(BufferService.class);
        List<DeviceId> devices = device == null ? new ArrayList<>(buffers.getDevices())
                : List.of(Args.device(device));
        devices.sort(Comparator.comparing(DeviceId::toString));
        List<Buffer> all = new ArrayList<>();
        devices.forEach(d -> all.addAll(buffers.getBuffers(d)));
        if (outputJson()) {
            printJson(Buffer.class, all);
            return;
        }
        print(FORMAT, "device", "buffer", "state", "vport", "mode", "held", "owner");
        for (Buffer b : all) {
            print(FORMAT, b.deviceId(), b.id().id(), b.state(), b.vport().id(), b.mode(),
                  b.occupancyPackets(), b.owner());
        }
    }
}
