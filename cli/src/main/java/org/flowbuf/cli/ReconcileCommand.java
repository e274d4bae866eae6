/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferService;

import java.util.List;

/**
 * Reconciles a device's buffers with its agent.
 */
@Service
@Command(scope = "onos", name = "flowbuf-reconcile",
        description = "Adopts buffers the agent holds and re-creates those it lost")
public class ReconcileCommand extends FlowBufCommand {

    @Argument(name = "device", required = true)
    @Completion(DeviceIdCompleter.class)
    String device;

    @Override
    protected void run() {
        List<BufferEvent> changes = service(BufferService.class).reconcile(Args.device(device));
        if (outputJson()) {
            printJson(BufferEvent.class, changes);
            return;
        }
        changes.forEach(e -> print("%s %s", e.type(), e.subject().id().id()));
        print("%d change(s)", changes.size());
    }
}
