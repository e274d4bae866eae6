/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the hybrid UPF's paths are and how the controller places UEs on
 * them (pipeconf include/hybrid.p4): the fast-path switch, whose downlink
 * session misses go out of {@code slowPort} to the slow-path switch; the
 * port the data network's downlink arrives on at the fast path (where a
 * moving UE's packets are held); how many UEs the fast path may hold; how
 * long a promoted UE may stay under the heavy-hitter rate before it is
 * demoted; the window its rate is measured over.
 */
public final class HybridSettings {

    /** Fewest fast-path sessions. */
    public static final int MIN_BUDGET = 1;
    /** Most fast-path sessions (the UPF's 16-bit counter cells, one per session and direction). */
    public static final int MAX_BUDGET = 32_767;
    /** The fast-path profile's session table (org.flowbuf.pipeconf.upf-fast). */
    public static final int DEFAULT_BUDGET = 4096;
    /** Shortest demotion idle time, ms. */
    public static final long MIN_DEMOTE_MS = 100;
    /** Longest demotion idle time, ms (one day). */
    public static final long MAX_DEMOTE_MS = 86_400_000;
    /** Default demotion idle time, ms. */
    public static final long DEFAULT_DEMOTE_MS = 5000;
    /** Shortest rate window, ms. */
    public static final long MIN_WINDOW_MS = 50;
    /** Longest rate window, ms. */
    public static final long MAX_WINDOW_MS = 60_000;
    /** Default rate window, ms. */
    public static final long DEFAULT_WINDOW_MS = 500;
    /** Highest switch port number (v1model's 9-bit ports; 255 is the CPU's). */
    public static final long MAX_PORT = 254;

    private final Optional<DeviceId> fastDevice;
    private final Optional<DeviceId> slowDevice;
    private final PortNumber slowPort;
    private final PortNumber dnPort;
    private final int budget;
    private final long demoteIdleMs;
    private final long windowMs;

    private HybridSettings(Optional<DeviceId> fastDevice, Optional<DeviceId> slowDevice,
                           PortNumber slowPort, PortNumber dnPort, int budget, long demoteIdleMs,
                           long windowMs) {
        this.fastDevice = fastDevice;
        this.slowDevice = slowDevice;
        this.slowPort = slowPort;
        this.dnPort = dnPort;
        this.budget = budget;
        this.demoteIdleMs = demoteIdleMs;
        this.windowMs = windowMs;
    }

    /**
     * No hybrid placement: no fast path configured.
     *
     * @return settings
     */
    public static HybridSettings off() {
        return new HybridSettings(Optional.empty(), Optional.empty(), PortNumber.portNumber(0),
                                  PortNumber.portNumber(0), DEFAULT_BUDGET, DEFAULT_DEMOTE_MS,
                                  DEFAULT_WINDOW_MS);
    }

    /**
     * Checked settings of a hybrid UPF.
     *
     * @param fastDevice   the fast-path switch
     * @param slowDevice   the slow-path switch (every session is installed there)
     * @param slowPort     the fast path's port to the slow path
     * @param dnPort       the fast path's port the data network's downlink arrives on
     * @param budget       fast-path sessions the controller may use
     * @param demoteIdleMs how long a promoted UE stays under the heavy-hitter rate before
     *                     it is demoted, ms
     * @param windowMs     the window a promoted UE's rate is measured over, ms
     * @return settings
     * @throws FlowBufException INVALID naming the field out of range
     */
    public static HybridSettings of(DeviceId fastDevice, DeviceId slowDevice, long slowPort,
                                    long dnPort, long budget, long demoteIdleMs, long windowMs) {
        Objects.requireNonNull(fastDevice);
        Objects.requireNonNull(slowDevice);
        if (fastDevice.equals(slowDevice)) {
            throw FlowBufException.invalid("\"fastDevice\" and \"slowDevice\" must differ, both are %s",
                                           fastDevice);
        }
        check("slowPort", slowPort, 1, MAX_PORT, "");
        check("dnPort", dnPort, 1, MAX_PORT, "");
        if (slowPort == dnPort) {
            throw FlowBufException.invalid("\"slowPort\" and \"dnPort\" must differ, both are %d",
                                           slowPort);
        }
        check("fastTableBudget", budget, MIN_BUDGET, MAX_BUDGET, " sessions");
        check("demoteIdleMs", demoteIdleMs, MIN_DEMOTE_MS, MAX_DEMOTE_MS, " ms");
        check("windowMs", windowMs, MIN_WINDOW_MS, MAX_WINDOW_MS, " ms");
        if (windowMs > demoteIdleMs) {
            throw FlowBufException.invalid("\"windowMs\" (%d) must not exceed \"demoteIdleMs\" (%d): "
                                                   + "a UE is demoted after whole windows under the rate",
                                           windowMs, demoteIdleMs);
        }
        return new HybridSettings(Optional.of(fastDevice), Optional.of(slowDevice),
                                  PortNumber.portNumber(slowPort), PortNumber.portNumber(dnPort),
                                  (int) budget, demoteIdleMs, windowMs);
    }

    private static void check(String field, long value, long min, long max, String unit) {
        if (value < min || value > max) {
            throw FlowBufException.invalid("\"%s\" must be %d..%d%s, got %d", field, min, max, unit,
                                           value);
        }
    }

    /**
     * Whether a fast path is configured.
     *
     * @return true when on
     */
    public boolean enabled() {
        return fastDevice.isPresent();
    }

    /**
     * The fast-path switch.
     *
     * @return device, empty when off
     */
    public Optional<DeviceId> fastDevice() {
        return fastDevice;
    }

    /**
     * The slow-path switch.
     *
     * @return device, empty when off
     */
    public Optional<DeviceId> slowDevice() {
        return slowDevice;
    }

    /**
     * The fast path's port to the slow path.
     *
     * @return port
     */
    public PortNumber slowPort() {
        return slowPort;
    }

    /**
     * The fast path's port the data network's downlink arrives on.
     *
     * @return port
     */
    public PortNumber dnPort() {
        return dnPort;
    }

    /**
     * Fast-path sessions the controller may use.
     *
     * @return sessions
     */
    public int fastTableBudget() {
        return budget;
    }

    /**
     * How long a promoted UE stays under the heavy-hitter rate before it is demoted.
     *
     * @return ms
     */
    public long demoteIdleMs() {
        return demoteIdleMs;
    }

    /**
     * The window a promoted UE's rate is measured over.
     *
     * @return ms
     */
    public long windowMs() {
        return windowMs;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HybridSettings)) {
            return false;
        }
        HybridSettings s = (HybridSettings) o;
        return fastDevice.equals(s.fastDevice) && slowDevice.equals(s.slowDevice)
                && slowPort.equals(s.slowPort) && dnPort.equals(s.dnPort) && budget == s.budget
                && demoteIdleMs == s.demoteIdleMs && windowMs == s.windowMs;
    }

    @Override
    public int hashCode() {
        return Objects.hash(fastDevice, slowDevice, slowPort, dnPort, budget, demoteIdleMs, windowMs);
    }

    @Override
    public String toString() {
        if (!enabled()) {
            return "off";
        }
        return "fast " + fastDevice.get() + " (slow path on port " + slowPort + ", data network on "
                + dnPort + ", " + budget + " sessions), slow " + slowDevice.get() + ", demote after "
                + demoteIdleMs + " ms under the rate, window " + windowMs + " ms";
    }
}
