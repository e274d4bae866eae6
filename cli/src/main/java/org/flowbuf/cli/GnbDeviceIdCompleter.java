/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes gNodeB devices: those with a "gnb" netcfg section.
 */
@Service
public class GnbDeviceIdCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(GnbService.class).devices().stream().map(GnbDevice::deviceId)
                .map(Object::toString).sorted().collect(Collectors.toList());
    }
}
