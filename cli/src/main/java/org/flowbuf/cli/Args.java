/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parsing of command arguments, with messages that say what is wrong.
 */
final class Args {

    /** Owner of what CLI and REST users create when they name none. */
    static final String DEFAULT_OWNER = BufferService.OPERATOR;

    private Args() {
    }

    static DeviceId device(String text) {
        if (text == null || !text.contains(":")) {
            throw new IllegalArgumentException("bad device id '" + text + "' (expected e.g. device:s1)");
        }
        return DeviceId.deviceId(text);
    }

    static PortNumber port(String text) {
        try {
            long port = Long.parseLong(text);
            if (port <= 0 || port > 0xFFFFFFFFL) {
                throw new NumberFormatException();
            }
            return PortNumber.portNumber(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port '" + text + "' (expected a positive number)");
        }
    }

    static BufferId buffer(String text) {
        return BufferId.bufferId(text);
    }

    static Optional<BufferId> optionalBuffer(String text) {
        return Optional.ofNullable(text).map(Args::buffer);
    }

    static BufferState state(String text) {
        try {
            return BufferState.valueOf(text.toUpperCase());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("bad state '" + text + "' (one of "
                                                       + Arrays.toString(BufferState.values()) + ")");
        }
    }

    static IntentId intent(String text) {
        try {
            return IntentId.intentId(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad intent id '" + text + "' (expected a number)");
        }
    }

    static FlowFilter filter(String src, String dst, Integer proto, Integer sport, Integer dport) {
        FlowFilter.Builder b = FlowFilter.builder();
        if (src != null) {
            b.ipv4Src(prefix("--src", src));
        }
        if (dst != null) {
            b.ipv4Dst(prefix("--dst", dst));
        }
        if (proto != null) {
            b.ipProto(proto);
        }
        if (sport != null) {
            b.l4SrcPort(sport);
        }
        if (dport != null) {
            b.l4DstPort(dport);
        }
        return b.build();
    }

    /**
     * Comma-separated connect points, exactly `count` of them.
     *
     * @param option option name for the message
     * @param text   e.g. "device:sa/1,device:sa/2"
     * @param count  how many
     * @return the connect points
     */
    static List<ConnectPoint> connectPoints(String option, String text, int count) {
        String[] parts = text == null ? new String[0] : text.split(",");
        if (parts.length != count) {
            throw new IllegalArgumentException(option + " needs " + count
                                                       + " comma-separated ports like device:s1/3");
        }
        List<ConnectPoint> points = new ArrayList<>();
        for (String part : parts) {
            try {
                points.add(ConnectPoint.deviceConnectPoint(part.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": bad port '" + part
                                                           + "' (expected e.g. device:s1/3)");
            }
        }
        return points;
    }

    static IpPrefix prefix(String option, String text) {
        try {
            return IpPrefix.valueOf(text.contains("/") ? text : text + "/32");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": bad IPv4 prefix '" + text + "'");
        }
    }

    static <E extends Enum<E>> E choice(String option, Class<E> type, String text) {
        try {
            return Enum.valueOf(type, text.toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not one of "
                                                       + Arrays.toString(type.getEnumConstants()));
        }
    }

    static long id(String what, String text) {
        long id;
        try {
            id = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad " + what + " id '" + text + "'");
        }
        if (id <= 0) {
            // Ids start at 1; the REST CLI refuses these too.
            throw new IllegalArgumentException("bad " + what + " id '" + text
                                                       + "': ids start at 1");
        }
        return id;
    }
}
