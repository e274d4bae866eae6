/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes UPF devices: those with UPF interfaces.
 */
@Service
public class UpfDeviceIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(UpfService.class).interfaces().stream().map(UpfInterface::deviceId)
                .map(Object::toString).distinct().sorted().collect(Collectors.toList());
    }
}
