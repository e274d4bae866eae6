/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.time.Instant;
import java.util.Objects;

/**
 * A DC heavy hitter the UPF-QoS policy rerouted: the UE's downlink leaves
 * its device by the high-bandwidth port, before the UPF's own pipeline
 * (one flow_steering entry), until it idles.
 */
public final class UpfQosReroute {

    private final HeavyHitter cause;
    private final long port;
    private final Instant since;
    private final long bytes;

    /**
     * A reroute.
     *
     * @param cause the report that made it
     * @param port  the high-bandwidth port
     * @param since when it was written
     * @param bytes bytes it took, as last read
     */
    public UpfQosReroute(HeavyHitter cause, long port, Instant since, long bytes) {
        this.cause = Objects.requireNonNull(cause);
        this.port = port;
        this.since = Objects.requireNonNull(since);
        this.bytes = bytes;
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return cause.deviceId();
    }

    /**
     * The UE whose downlink is rerouted.
     *
     * @return UE address
     */
    public Ip4Address ueAddress() {
        return cause.ueAddress();
    }

    /**
     * The report that made it.
     *
     * @return report
     */
    public HeavyHitter cause() {
        return cause;
    }

    /**
     * The high-bandwidth port.
     *
     * @return switch port
     */
    public long port() {
        return port;
    }

    /**
     * When it was written.
     *
     * @return instant
     */
    public Instant since() {
        return since;
    }

    /**
     * The bytes the reroute took, as the latest counter read found them.
     *
     * @return bytes
     */
    public long bytes() {
        return bytes;
    }

    /**
     * This reroute with a newer byte count.
     *
     * @param newBytes bytes
     * @return a copy
     */
    public UpfQosReroute withBytes(long newBytes) {
        return new UpfQosReroute(cause, port, since, newBytes);
    }

    @Override
    public String toString() {
        return "reroute of " + cause.ueAddress() + " on " + cause.deviceId() + " to port " + port
                + " since " + since + " (" + bytes + " bytes)";
    }
}
