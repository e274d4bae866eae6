/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes the UEs the hybrid placement knows: those with a session on
 * its slow path (every UE it can place).
 */
@Service
public class PlacementUeCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        HybridSettings settings = service(HybridPlacementService.class).settings();
        return service(UpfService.class).sessions().stream()
                .filter(s -> settings.slowDevice().map(s.deviceId()::equals).orElse(false))
                .map(s -> s.ueAddress().toString()).distinct().sorted().collect(Collectors.toList());
    }
}
