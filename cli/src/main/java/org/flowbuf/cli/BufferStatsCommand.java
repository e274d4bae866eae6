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
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufException;

/**
 * Shows a buffer's counters.
 */
@Service
@Command(scope = "onos", name = "flowbuf-buffer-stats",
        description = "Shows a buffer's counters, read from its agent")
public class BufferStatsCommand extends FlowBufCommand {

    @Argument(index = 0, name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Argument(index = 1, name = "bufferId", required = true)
    @Completion(BufferIdCompleter.class)
    String bufferId;

    @Override
    protected void run() {
        BufferStatistics s = service(BufferService.class)
                .getStatistics(Args.device(device), Args.buffer(bufferId))
                .orElseThrow(() -> FlowBufException.notFound("no buffer %s on %s", bufferId, device));
        if (outputJson()) {
            printJson(BufferStatistics.class, s);
            return;
        }
        print("in %d packets / %d bytes, out %d / %d, dropped %d", s.packetsIn(), s.bytesIn(),
              s.packetsOut(), s.bytesOut(), s.packetsDropped());
        print("held %d packets / %d bytes (high watermark %d), oldest %.3f ms",
              s.occupancyPackets(), s.occupancyBytes(), s.highWatermarkPackets(),
              s.oldestPacketAgeNanos() / 1e6);
    }
}
