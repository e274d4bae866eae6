/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.QueueType;

/**
 * Creates a buffer on a free vport (bind included).
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffer-create",
        description = "Creates a buffer bound to a free vport of the device")
public class BufferCreateCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "bufferId", required = true)
    String bufferId;

    @Option(name = "--state", description = "FREE (default), BUFFERING or FORWARDING")
    @Completion(BufferStateCompleter.class)
    String state = "FREE";

    @Option(name = "--capacity-packets")
    long capacityPackets = -1;

    @Option(name = "--capacity-bytes")
    long capacityBytes = -1;

    @Option(name = "--queue", description = "FIFO, PRIORITY or ARQ")
    String queue = "FIFO";

    @Option(name = "--overflow", description = "DROP_TAIL or DROP_HEAD")
    String overflow = "DROP_TAIL";

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Override
    protected void run() {
        BufferSpec defaults = BufferSpec.defaults();
        BufferSpec spec = BufferSpec.builder()
                .capacityPackets(capacityPackets < 0 ? defaults.capacityPackets() : capacityPackets)
                .capacityBytes(capacityBytes < 0 ? defaults.capacityBytes() : capacityBytes)
                .queueType(Args.choice("--queue", QueueType.class, queue))
                .overflow(Args.choice("--overflow", OverflowPolicy.class, overflow))
                .build();
        Buffer b = service(BufferService.class).createBuffer(
                Args.device(device), Args.buffer(bufferId), owner, spec, Args.state(state));
        if (outputJson()) {
            printJson(Buffer.class, b);
        } else {
            print("created %s on %s, vport %s, %s", b.id().id(), b.deviceId(), b.vport().id(),
                  b.state());
        }
    }
}
