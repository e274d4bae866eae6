/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * FB buffer admission in the device's P4 program (include/fb.p4), under
 * the key "fb" of a device:
 * <pre>
 * { "bufferPackets": 400, "ports": [1, 2, 5],
 *   "classes": [ { "queue": 7, "alpha": 2, "priority": "high" } ] }
 * </pre>
 * FB admits the packets leaving by the listed ports; a class is a queue
 * (what qos.dscp_queues or the UPF chose), and queues not listed have
 * alpha 1 and the low buffer priority. {@link #validationError()} names the
 * first bad field.
 */
public final class FbDeviceConfig extends Config<DeviceId> {

    /** Key of this configuration under a device. */
    public static final String CONFIG_KEY = "fb";
    /** Queues of a port (std_meta.priority is 3 bits). */
    public static final int QUEUES = 8;
    static final String BUFFER_PACKETS = "bufferPackets";
    static final String PORTS = "ports";
    static final String CLASSES = "classes";
    static final String QUEUE = "queue";
    static final String ALPHA = "alpha";
    static final String PRIORITY = "priority";
    // The CPU port and the drop port: FB never sees them.
    private static final Set<Long> RESERVED_PORTS = Set.of(255L, 511L);
    private static final long MAX_PORT = 510;
    private static final long MAX_PACKETS = (1L << 32) - 1;

    @Override
    public boolean isValid() {
        return validationError().isEmpty();
    }

    /**
     * The first problem of this configuration.
     *
     * @return a message naming the bad field, empty when the config is valid
     */
    public Optional<String> validationError() {
        try {
            hasOnlyFields(BUFFER_PACKETS, PORTS, CLASSES);
        } catch (InvalidFieldException e) {
            return Optional.of("unknown field " + e.field()
                                       + "; allowed: bufferPackets, ports, classes");
        }
        JsonNode b = object.path(BUFFER_PACKETS);
        if (!b.isIntegralNumber() || b.asLong() < 1 || b.asLong() > MAX_PACKETS) {
            return Optional.of("bufferPackets must be a whole number of packets in 1.."
                                       + MAX_PACKETS);
        }
        Optional<String> error = checkPorts();
        return error.isPresent() ? error : checkClasses();
    }

    private Optional<String> checkPorts() {
        JsonNode ports = object.path(PORTS);
        if (!ports.isArray() || ports.size() == 0) {
            return Optional.of("ports must list the ports FB admits into");
        }
        Set<Long> seen = new HashSet<>();
        for (JsonNode p : ports) {
            if (!p.isIntegralNumber() || p.asLong() < 0 || p.asLong() > MAX_PORT
                    || RESERVED_PORTS.contains(p.asLong())) {
                return Optional.of("port " + p + ": want a switch port in 0.." + MAX_PORT
                                           + ", not the CPU port 255");
            }
            if (!seen.add(p.asLong())) {
                return Optional.of("port " + p + " listed twice");
            }
        }
        return Optional.empty();
    }

    private Optional<String> checkClasses() {
        JsonNode classes = object.path(CLASSES);
        if (classes.isMissingNode()) {
            return Optional.empty();
        }
        if (!classes.isArray()) {
            return Optional.of("classes must be a list");
        }
        Set<Integer> seen = new HashSet<>();
        for (JsonNode c : classes) {
            JsonNode q = c.path(QUEUE);
            if (!q.isIntegralNumber() || q.asInt() < 0 || q.asInt() >= QUEUES) {
                return Optional.of("class queue " + q + ": want 0.." + (QUEUES - 1));
            }
            if (!seen.add(q.asInt())) {
                return Optional.of("queue " + q + " given twice");
            }
            JsonNode alpha = c.path(ALPHA);
            if (!alpha.isMissingNode() && (!alpha.isNumber() || !(alpha.asDouble() > 0)
                    || !Double.isFinite(alpha.asDouble()))) {
                return Optional.of("queue " + q + ": alpha " + alpha
                                           + " must be a finite number > 0");
            }
            String prio = c.path(PRIORITY).asText("low");
            if (!prio.equals("low") && !prio.equals("high")) {
                return Optional.of("queue " + q + ": priority \"" + prio
                                           + "\", want low or high");
            }
        }
        return Optional.empty();
    }

    /**
     * B, the packets FB shares out.
     *
     * @return packets
     */
    public long bufferPackets() {
        return object.path(BUFFER_PACKETS).asLong();
    }

    /**
     * The ports FB admits into.
     *
     * @return port numbers
     */
    public Set<Long> ports() {
        Set<Long> ports = new HashSet<>();
        object.path(PORTS).forEach(p -> ports.add(p.asLong()));
        return ports;
    }

    /**
     * Each queue's alpha (1 when not listed).
     *
     * @return alphas by queue index
     */
    public double[] alphas() {
        double[] alphas = new double[QUEUES];
        java.util.Arrays.fill(alphas, 1.0);
        object.path(CLASSES).forEach(c -> alphas[c.path(QUEUE).asInt()] =
                c.path(ALPHA).asDouble(1.0));
        return alphas;
    }

    /**
     * Each queue's buffer priority.
     *
     * @return true for the high priority, by queue index
     */
    public boolean[] high() {
        boolean[] high = new boolean[QUEUES];
        object.path(CLASSES).forEach(c -> high[c.path(QUEUE).asInt()] =
                "high".equals(c.path(PRIORITY).asText()));
        return high;
    }
}
