/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfService;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists the UPF's PDU sessions.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-sessions", description = "Lists the UPF's PDU sessions")
public class UpfSessionsListCommand extends FlowBufCommand {

    static final String FORMAT = "%-5s %-12s %-15s %-15s %-10s %-21s %-10s %-4s %s";

    @Argument(name = "deviceId", description = "only this device's")
    @Completion(UpfDeviceIdCompleter.class)
    String deviceId;

    @Override
    protected void run() {
        List<PduSession> sessions = service(UpfService.class).sessions().stream()
                .filter(s -> deviceId == null || s.deviceId().equals(Args.device(deviceId)))
                .sorted(Comparator.comparingLong(PduSession::id)).collect(Collectors.toList());
        if (outputJson()) {
            printJson(PduSession.class, sessions);
            return;
        }
        print(FORMAT, "id", "device", "ue", "n3", "uplink", "gnb", "downlink", "qfi", "ambr");
        sessions.forEach(s -> printRow(this, s));
    }

    static void printRow(FlowBufCommand command, PduSession s) {
        command.print(FORMAT, s.id(), s.deviceId(), s.ueAddress(), s.n3Address(),
                      "0x" + Long.toHexString(s.uplinkTeid()), s.gnbAddress() + ":" + s.gnbPort(),
                      "0x" + Long.toHexString(s.downlinkTeid()), s.qfi(),
                      s.ambr().map(m -> m.cir() + "/" + m.pir() + " B/s").orElse("-"));
    }
}
