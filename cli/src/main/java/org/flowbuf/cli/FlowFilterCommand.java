/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Option;

/**
 * The options pause and resume share: the flow (an IPv4 5-tuple), the
 * buffer and the owner.
 */
public abstract class FlowFilterCommand extends FlowMatchCommand {

    @Option(name = "--buffer", description = "Buffer to use (default: reuse or allocate)")
    String buffer;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;
}
