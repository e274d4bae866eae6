/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Command-line options of the embedded host.
 */
final class HostOptions {

    static final String USAGE = String.join("\n",
            "usage: flowbuf-host --netcfg FILE --p4info FILE [options]",
            "  --netcfg FILE        ONOS netcfg JSON: devices (basic.managementAddress,",
            "                       flowbuf section) and hosts",
            "  --p4info FILE        p4info.txt of the FlowBuf pipeline",
            "  --device-config FILE target config pushed with it (bmv2.json);",
            "                       default: the bmv2.json beside the p4info, if any",
            "  --listen HOST:PORT   REST API address (default 127.0.0.1:8181)",
            "  --connect-timeout S  seconds to wait for each switch (default 10)");

    final Path netcfg;
    final Path p4info;
    final Optional<Path> deviceConfig;
    final InetSocketAddress listen;
    final int connectTimeoutSeconds;

    private HostOptions(Path netcfg, Path p4info, Optional<Path> deviceConfig,
                        InetSocketAddress listen, int connectTimeoutSeconds) {
        this.netcfg = netcfg;
        this.p4info = p4info;
        this.deviceConfig = deviceConfig;
        this.listen = listen;
        this.connectTimeoutSeconds = connectTimeoutSeconds;
    }

    /**
     * Parses the arguments.
     *
     * @param args command line
     * @return options
     * @throws IllegalArgumentException with a message for the user
     */
    static HostOptions parse(String[] args) {
        Path netcfg = null;
        Path p4info = null;
        Path deviceConfig = null;
        InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 8181);
        int timeout = 10;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--netcfg":
                    netcfg = existing(flag, value);
                    break;
                case "--p4info":
                    p4info = existing(flag, value);
                    break;
                case "--device-config":
                    deviceConfig = existing(flag, value);
                    break;
                case "--listen":
                    listen = address(value);
                    break;
                case "--connect-timeout":
                    timeout = positive(flag, value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (netcfg == null || p4info == null) {
            throw new IllegalArgumentException("--netcfg and --p4info are required");
        }
        if (deviceConfig == null) {
            deviceConfig = besideP4Info(p4info);
        }
        return new HostOptions(netcfg, p4info, Optional.ofNullable(deviceConfig), listen, timeout);
    }

    // p4c writes bmv2.json beside p4info.txt; a switch that runs the JSON
    // (Stratum-bmv2, pbswitch) needs both.
    private static Path besideP4Info(Path p4info) {
        Path parent = p4info.toAbsolutePath().getParent();
        Path json = parent == null ? null : parent.resolve("bmv2.json");
        return json != null && Files.isReadable(json) ? json : null;
    }

    private static Path existing(String flag, String value) {
        Path path = Path.of(value);
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException(flag + ": cannot read " + value);
        }
        return path;
    }

    private static InetSocketAddress address(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--listen must be HOST:PORT, not " + value);
        }
        int port = positive("--listen port", value.substring(colon + 1));
        return new InetSocketAddress(value.substring(0, colon), port);
    }

    private static int positive(String what, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n < 0 || n > 65535) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a number 0-65535, not " + value);
        }
    }
}
