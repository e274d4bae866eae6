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
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;

import java.util.List;

/**
 * Shows the gNodeB devices: UPF port, cells and bearers.
 */
@Service
@Command(scope = "onos", name = "flowbuf-gnb",
        description = "Shows the gNodeB devices: UPF port, cells (radio and BaaS ports) and bearers")
public class GnbDevicesCommand extends FlowBufCommand {

    static final String BEARER_FORMAT = "  %-6s %-12s %-5s %-18s %-12s %-16s %s";

    @Argument(name = "deviceId", description = "only this device")
    @Completion(GnbDeviceIdCompleter.class)
    String deviceId;

    @Override
    protected void run() {
        GnbService gnb = service(GnbService.class);
        List<GnbDevice> devices = deviceId == null ? gnb.devices()
                : List.of(gnb.device(Args.device(deviceId)).orElseThrow(
                        () -> FlowBufException.notFound("%s is no gNodeB", deviceId)));
        printListing(GnbDevice.class, devices, this::printDevice);
    }

    private void printDevice(GnbDevice d) {
        print("%s: UPF port %d", d.deviceId(), d.upfPort());
        d.cells().forEach(c -> print("  cell %d: radio port %d, BaaS port %d", c.id(),
                                     c.radioPort(), c.baasPort()));
        print(BEARER_FORMAT, "sn", "teid", "cell", "ue mac", "uplink", "gnb", "upf");
        for (int i = 0; i < d.bearers().size(); i++) {
            GnbBearer b = d.bearers().get(i);
            print(BEARER_FORMAT, i, "0x" + Long.toHexString(b.teid()), b.cell(), b.ueMac(),
                  "0x" + Long.toHexString(b.uplinkTeid()), b.gnbAddress(), b.upfAddress());
        }
    }
}
