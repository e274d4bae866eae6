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
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfService;
import org.onlab.packet.Ip4Address;

import java.util.List;

/**
 * Installs a PDU session on a UPF device.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-session-add",
        description = "Installs a UE's PDU session (GTP-U both ways) on a UPF device")
public class UpfSessionAddCommand extends FlowBufCommand {

    @Argument(index = 0, name = "deviceId", required = true)
    @Completion(UpfDeviceIdCompleter.class)
    String deviceId;

    @Argument(index = 1, name = "ueAddress", required = true)
    String ueAddress;

    @Argument(index = 2, name = "n3Address", required = true, description = "an N3 address of the device")
    String n3Address;

    @Argument(index = 3, name = "uplinkTeid", required = true, description = "decimal or 0x hex")
    String uplinkTeid;

    @Argument(index = 4, name = "gnbAddress", required = true)
    String gnbAddress;

    @Argument(index = 5, name = "downlinkTeid", required = true, description = "decimal or 0x hex")
    String downlinkTeid;

    @Option(name = "--qfi")
    int qfi;

    @Option(name = "--gnb-port", description = "the downlink's outer UDP source port (2152)")
    int gnbPort = PduSession.GTPU_PORT;

    @Option(name = "--ambr", description = "CIR,CBURST,PIR,PBURST in bytes/s and bytes")
    String ambr;

    @Override
    protected void run() {
        PduSession.Builder b = PduSession.builder().deviceId(Args.device(deviceId))
                .ueAddress(address("ueAddress", ueAddress)).n3Address(address("n3Address", n3Address))
                .uplinkTeid(number("uplinkTeid", uplinkTeid)).gnbAddress(address("gnbAddress", gnbAddress))
                .downlinkTeid(number("downlinkTeid", downlinkTeid)).qfi(qfi).gnbPort(gnbPort);
        if (ambr != null) {
            b.ambr(meter(ambr));
        }
        PduSession added = service(UpfService.class).addSessions(List.of(b.build())).get(0);
        if (json()) {
            printJson(PduSession.class, added);
        } else {
            UpfSessionsListCommand.printRow(this, added);
        }
    }

    static Ip4Address address(String what, String text) {
        try {
            return Ip4Address.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("%s \"%s\" is not an IPv4 address", what, text);
        }
    }

    static long number(String what, String text) {
        try {
            return text.startsWith("0x") || text.startsWith("0X")
                    ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw FlowBufException.invalid("%s \"%s\" is not a number", what, text);
        }
    }

    static UpfMeter meter(String text) {
        String[] parts = text.split(",");
        if (parts.length != 4) {
            throw FlowBufException.invalid("--ambr \"%s\" is not CIR,CBURST,PIR,PBURST", text);
        }
        return UpfMeter.of(number("cir", parts[0].trim()), number("cburst", parts[1].trim()),
                           number("pir", parts[2].trim()), number("pburst", parts[3].trim()));
    }
}
