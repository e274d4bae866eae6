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
 * Completes devices with a buffer agent.
 */
@Service
public class DeviceIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(BufferService.class).getDevices().stream().map(Object::toString)
                .sorted().collect(Collectors.toList());
    }
}
