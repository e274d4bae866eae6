/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes buffer ids of every FlowBuf device.
 */
@Service
public class BufferIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        BufferService buffers = service(BufferService.class);
        return buffers.getDevices().stream().flatMap(d -> buffers.getBuffers(d).stream())
                .map(b -> b.id().id())
                .sorted().collect(Collectors.toList());
    }
}
