/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A device's UPF-QoS policy (hybrid P4 UPF, section 6.3.1): the
 * delay-critical (DC) flows, named by a UPF filter, get a QFI whose packets
 * wait in a high-priority queue; a UE the heavy-hitter detector reports
 * whose flow is DC is rerouted to the high-bandwidth path (a switch port)
 * until it has sent nothing there for {@link #idle()}.
 */
public final class UpfQosPolicy {

    /** The default queue of DC flows (strict priority, 7 first). */
    public static final int DEFAULT_QUEUE = UpfQueue.MAX_QUEUE;
    /** The default idle time after which a reroute is undone. */
    public static final long DEFAULT_IDLE_MS = 1000;
    /** The longest idle time. */
    public static final long MAX_IDLE_MS = 3_600_000;
    /** The largest switch port (port_num_t is 9 bits). */
    public static final long MAX_PORT = 511;

    private final UpfApplication dcClass;
    private final int queue;
    private final Long highBandwidthPort;
    private final Duration idle;

    /**
     * A policy.
     *
     * @param dcClass           the DC flows: a UPF application (device, id, priority,
     *                          filter, QFI) the policy installs
     * @param queue             the queue of the DC class's QFI, 0-7
     * @param highBandwidthPort where a DC heavy hitter is rerouted, 1-511; null: no reroute
     * @param idleMs            a reroute is undone after this long without a packet,
     *                          1-3600000
     * @throws FlowBufException INVALID when a value is out of range
     */
    public UpfQosPolicy(UpfApplication dcClass, long queue, Long highBandwidthPort, long idleMs) {
        this.dcClass = Objects.requireNonNull(dcClass);
        if (dcClass.meter().isPresent()) {
            throw FlowBufException.invalid("the DC class takes no meter: it is queued, not policed");
        }
        this.queue = new UpfQueue(dcClass.deviceId(), dcClass.qfi(), queue).queue();
        if (highBandwidthPort != null && (highBandwidthPort < 1 || highBandwidthPort > MAX_PORT)) {
            throw FlowBufException.invalid("highBandwidthPort must be between 1 and %d, got %d",
                                           MAX_PORT, highBandwidthPort);
        }
        this.highBandwidthPort = highBandwidthPort;
        if (idleMs < 1 || idleMs > MAX_IDLE_MS) {
            throw FlowBufException.invalid("idleMs must be between 1 and %d, got %d", MAX_IDLE_MS,
                                           idleMs);
        }
        this.idle = Duration.ofMillis(idleMs);
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return dcClass.deviceId();
    }

    /**
     * The DC class, as the UPF application the policy installs.
     *
     * @return application
     */
    public UpfApplication dcClass() {
        return dcClass;
    }

    /**
     * The DC class's queue entry.
     *
     * @return QFI → queue
     */
    public UpfQueue dcQueue() {
        return new UpfQueue(dcClass.deviceId(), dcClass.qfi(), queue);
    }

    /**
     * Where DC heavy hitters go.
     *
     * @return switch port; empty: they are not rerouted
     */
    public Optional<Long> highBandwidthPort() {
        return Optional.ofNullable(highBandwidthPort);
    }

    /**
     * How long a rerouted UE may send nothing before its reroute is undone.
     *
     * @return idle time
     */
    public Duration idle() {
        return idle;
    }

    /**
     * Whether a reported flow is in the DC class (the filter is the UE's
     * view: its address and port, the data network's address and port).
     *
     * @param hh a heavy-hitter report
     * @return true when the DC filter takes the report's flow
     */
    public boolean isDelayCritical(HeavyHitter hh) {
        UpfFilter f = dcClass.filter();
        return hh.deviceId().equals(deviceId())
                && covers(f.ueAddress().map(p -> p.contains(hh.ueAddress())), true)
                && covers(f.appAddress().map(p -> p.contains(hh.appAddress())), true)
                && covers(f.ipProto().map(p -> p == hh.ipProto()), true)
                && inRange(f.uePort(), hh.uePort()) && inRange(f.appPort(), hh.appPort());
    }

    private static boolean covers(Optional<Boolean> match, boolean whenUnset) {
        return match.orElse(whenUnset);
    }

    private static boolean inRange(PortRange range, int port) {
        return range.low() <= port && port <= range.high();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UpfQosPolicy)) {
            return false;
        }
        UpfQosPolicy p = (UpfQosPolicy) o;
        return dcClass.equals(p.dcClass) && queue == p.queue
                && Objects.equals(highBandwidthPort, p.highBandwidthPort) && idle.equals(p.idle);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dcClass, queue, highBandwidthPort, idle);
    }

    @Override
    public String toString() {
        return "UPF-QoS " + deviceId() + ": DC " + dcClass.filter() + " -> QFI " + dcClass.qfi()
                + ", queue " + queue + ", heavy hitters -> "
                + (highBandwidthPort == null ? "not rerouted" : "port " + highBandwidthPort)
                + ", idle " + idle.toMillis() + " ms";
    }
}
