/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.UpfService;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.flowbuf.cli.FlowBufCommand.service;

/**
 * Completes PDU sessions: their ids and their UEs' addresses.
 */
@Service
public class UpfSessionCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return service(UpfService.class).sessions().stream()
                .flatMap(s -> Stream.of(Long.toString(s.id()), s.ueAddress().toString()))
                .sorted().collect(Collectors.toList());
    }
}
