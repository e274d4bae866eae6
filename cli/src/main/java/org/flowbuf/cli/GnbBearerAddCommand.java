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
import org.onlab.packet.MacAddress;

import java.util.regex.Pattern;

/**
 * Adds a bearer to a gNodeB.
 */
@Service
@Command(scope = "onos", name = "flowbuf-gnb-bearer-add",
        description = "Adds a bearer (a UE's downlink TEID on a cell, with its uplink tunnel) to a gNodeB")
public class GnbBearerAddCommand extends FlowBufCommand {

    private static final Pattern MAC = Pattern.compile("[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}");

    @Argument(index = 0, name = "deviceId", required = true)
    @Completion(GnbDeviceIdCompleter.class)
    String deviceId;

    @Argument(index = 1, name = "teid", required = true, description = "downlink TEID, decimal or 0x hex")
    String teid;

    @Argument(index = 2, name = "cell", required = true, description = "one of the device's cell ids")
    String cell;

    @Argument(index = 3, name = "ueMac", required = true, description = "the UE's MAC, e.g. 02:00:00:00:0e:02")
    String ueMac;

    @Argument(index = 4, name = "uplinkTeid", required = true, description = "the UPF's TEID, decimal or 0x hex")
    String uplinkTeid;

    @Argument(index = 5, name = "gnbAddress", required = true, description = "the gNodeB's N3 address")
    String gnbAddress;

    @Argument(index = 6, name = "upfAddress", required = true, description = "the UPF's N3 address")
    String upfAddress;

    @Override
    protected void run() {
        if (!MAC.matcher(ueMac).matches()) {
            throw FlowBufException.invalid("ueMac \"%s\" is not a MAC address (six hex pairs "
                                                   + "separated by ':')", ueMac);
        }
        GnbBearer bearer = new GnbBearer(
                UpfSessionAddCommand.number("teid", teid), UpfSessionAddCommand.number("cell", cell),
                MacAddress.valueOf(ueMac), UpfSessionAddCommand.number("uplinkTeid", uplinkTeid),
                UpfSessionAddCommand.address("gnbAddress", gnbAddress),
                UpfSessionAddCommand.address("upfAddress", upfAddress));
        GnbDevice gnb = service(GnbService.class).addBearer(Args.device(deviceId), bearer);
        if (json()) {
            printJson(GnbDevice.class, gnb);
        } else {
            print("added bearer 0x%s to %s (SN cell %d)", Long.toHexString(bearer.teid()),
                  gnb.deviceId(), gnb.bearers().size() - 1);
        }
    }
}
