/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Option;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;

/**
 * The flow options of the commands that name a flow: an IPv4 5-tuple
 * (pause, resume, a latency-critical flow's registration).
 */
public abstract class FlowMatchCommand extends FlowBufCommand {

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

    @Option(name = "--all", description = "Every IPv4 packet (no --src/--dst/--proto/--sport/"
            + "--dport): without one of those a flow must be named --all explicitly")
    boolean all;

    /**
     * The flow the options name.
     *
     * @return filter
     * @throws FlowBufException INVALID for no flow option without --all, or
     *         --all with one
     */
    protected FlowFilter filter() {
        FlowFilter filter = Args.filter(src, dst, proto, sport, dport);
        if (filter.matchesEveryIpv4Packet() && !all) {
            throw FlowBufException.invalid("no flow named: every IPv4 packet would match; give "
                                                   + "--src, --dst, --proto, --sport or "
                                                   + "--dport, or --all to mean that");
        }
        if (!filter.matchesEveryIpv4Packet() && all) {
            throw FlowBufException.invalid("--all is every IPv4 packet: it goes without --src, "
                                                   + "--dst, --proto, --sport and --dport");
        }
        return filter;
    }
}
