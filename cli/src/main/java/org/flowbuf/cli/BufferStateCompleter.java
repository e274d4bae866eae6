/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.BufferState;
import org.onosproject.cli.AbstractChoicesCompleter;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Completes buffer states.
 */
@Service
public class BufferStateCompleter extends AbstractChoicesCompleter {

    @Override
    protected List<String> choices() {
        return Arrays.stream(BufferState.values()).map(Enum::name)
                .sorted().collect(Collectors.toList());
    }
}
