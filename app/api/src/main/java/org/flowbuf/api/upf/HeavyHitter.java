/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A switch found a UE heavy (a digest of include/hh.p4): the UE's
 * downlink, with the 5-tuple of the packet that made it heavy, and the
 * EWMA of its inter-packet gaps then.
 */
public final class HeavyHitter {

    private final DeviceId deviceId;
    private final Ip4Address ueAddress;
    private final Ip4Address appAddress;
    private final int ipProto;
    private final int uePort;
    private final int appPort;
    private final long ewmaEighthsUs;
    private final long cell;
    private final Instant reportedAt;
    private final Instant emittedAt;

    /**
     * A report.
     *
     * @param deviceId      the switch that found it
     * @param ueAddress     the UE
     * @param appAddress    the data network's end of the packet's flow
     * @param ipProto       its IP protocol
     * @param uePort        its UE-side L4 port (0 without one)
     * @param appPort       its data-network-side L4 port
     * @param ewmaEighthsUs the EWMA gap, 1/8 µs
     * @param cell          the UE's register cell on the switch
     * @param reportedAt    when the controller received it
     */
    public HeavyHitter(DeviceId deviceId, Ip4Address ueAddress, Ip4Address appAddress,
                       int ipProto, int uePort, int appPort, long ewmaEighthsUs, long cell,
                       Instant reportedAt) {
        this(deviceId, ueAddress, appAddress, ipProto, uePort, appPort, ewmaEighthsUs, cell,
             reportedAt, null);
    }

    private HeavyHitter(DeviceId deviceId, Ip4Address ueAddress, Ip4Address appAddress,
                        int ipProto, int uePort, int appPort, long ewmaEighthsUs, long cell,
                        Instant reportedAt, Instant emittedAt) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.ueAddress = Objects.requireNonNull(ueAddress);
        this.appAddress = Objects.requireNonNull(appAddress);
        this.ipProto = ipProto;
        this.uePort = uePort;
        this.appPort = appPort;
        this.ewmaEighthsUs = ewmaEighthsUs;
        this.cell = cell;
        this.reportedAt = Objects.requireNonNull(reportedAt);
        this.emittedAt = emittedAt;
    }

    /**
     * The switch.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The UE.
     *
     * @return address
     */
    public Ip4Address ueAddress() {
        return ueAddress;
    }

    /**
     * The data network's end.
     *
     * @return address
     */
    public Ip4Address appAddress() {
        return appAddress;
    }

    /**
     * IP protocol.
     *
     * @return protocol number
     */
    public int ipProto() {
        return ipProto;
    }

    /**
     * UE-side port.
     *
     * @return port
     */
    public int uePort() {
        return uePort;
    }

    /**
     * Data-network-side port.
     *
     * @return port
     */
    public int appPort() {
        return appPort;
    }

    /**
     * The EWMA gap as the switch keeps it.
     *
     * @return 1/8 µs
     */
    public long ewmaEighthsUs() {
        return ewmaEighthsUs;
    }

    /**
     * The EWMA gap.
     *
     * @return microseconds
     */
    public double ewmaGapUs() {
        return ewmaEighthsUs / (double) (1 << HeavyHitterSettings.EWMA_SHIFT);
    }

    /**
     * The UE's register cell (crc32 of its address mod the cells).
     *
     * @return index
     */
    public long cell() {
        return cell;
    }

    /**
     * When the controller received the report.
     *
     * @return time
     */
    public Instant reportedAt() {
        return reportedAt;
    }

    /**
     * When the switch made the report (P4Runtime's DigestList timestamp),
     * when it said.
     *
     * @return time
     */
    public Optional<Instant> emittedAt() {
        return Optional.ofNullable(emittedAt);
    }

    /**
     * The same report, made by the switch at a given time.
     *
     * @param made when the switch made it
     * @return a copy
     */
    public HeavyHitter withEmittedAt(Instant made) {
        return new HeavyHitter(deviceId, ueAddress, appAddress, ipProto, uePort, appPort,
                               ewmaEighthsUs, cell, reportedAt, Objects.requireNonNull(made));
    }

    @Override
    public String toString() {
        return "UE " + ueAddress + " heavy at " + deviceId + " (EWMA gap " + ewmaGapUs()
                + " µs, flow " + appAddress + ":" + appPort + " -> " + ueAddress + ":" + uePort
                + " proto " + ipProto + ", cell " + cell + ")";
    }
}
