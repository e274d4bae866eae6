/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Option;
import org.flowbuf.api.FlowFilter;

/**
 * The flow options pause and resume share: an IPv4 5-tuple.
 */
public abstract class FlowFilterCommand extends FlowBufCommand {

    @Option(name = "--src", description = "IPv4 source prefix (an address means /32)")
    String src;

    @Option(name = "--dst", description = "IPv4 destination prefix")
    String dst;

    @Option(name = "--proto", description = "IP protocol number (6 TCP, 17 UDP)")
    Integer proto;

    @Option(name = "--sport", description = "TCP/UDP source port (needs --proto)")
    Integer sport;

    @Option(name = "--dport", description = "TCP/UDP destination port (needs --proto)")
    Integer dport;

    @Option(name = "--buffer", description = "Buffer to use (default: reuse or allocate)")
    String buffer;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    /**
     * The flow the options name.
     *
     * @return filter
     */
    protected FlowFilter filter() {
        return Args.filter(src, dst, proto, sport, dport);
    }
}
