/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.util.Objects;
import java.util.Optional;

/**
 * A UE's PDU session on one UPF device: the uplink arrives GTP-U
 * encapsulated from the gNodeB to (N3 address, uplink TEID); the downlink to
 * the UE's address leaves encapsulated with the downlink TEID and the QFI
 * towards the gNodeB. The session AMBR, when given, meters each direction.
 * What a builder accepts is well-formed; whether it fits the device (its
 * interfaces, other sessions' TEIDs) is checked by the {@link UpfService}.
 */
public final class PduSession {

    /** UDP port of GTP-U (3GPP TS 29.281). */
    public static final int GTPU_PORT = 2152;
    /** The largest QoS flow identifier (6 bits). */
    public static final int MAX_QFI = 63;
    /** The largest TEID (32 bits). */
    public static final long MAX_TEID = 0xFFFF_FFFFL;

    private final long id;
    private final DeviceId deviceId;
    private final Ip4Address ueAddress;
    private final Ip4Address n3Address;
    private final long uplinkTeid;
    private final Ip4Address gnbAddress;
    private final long downlinkTeid;
    private final int gnbPort;
    private final int qfi;
    private final UpfMeter ambr;

    private PduSession(Builder b) {
        this.id = b.id;
        this.deviceId = b.deviceId;
        this.ueAddress = b.ueAddress;
        this.n3Address = b.n3Address;
        this.uplinkTeid = b.uplinkTeid;
        this.gnbAddress = b.gnbAddress;
        this.downlinkTeid = b.downlinkTeid;
        this.gnbPort = b.gnbPort;
        this.qfi = b.qfi;
        this.ambr = b.ambr;
    }

    /**
     * A builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder with this session's values.
     *
     * @return builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.deviceId = deviceId;
        b.ueAddress = ueAddress;
        b.n3Address = n3Address;
        b.uplinkTeid = uplinkTeid;
        b.gnbAddress = gnbAddress;
        b.downlinkTeid = downlinkTeid;
        b.gnbPort = gnbPort;
        b.qfi = qfi;
        b.ambr = ambr;
        return b;
    }

    /**
     * The service's id of the session; 0 before the service assigned one.
     *
     * @return id
     */
    public long id() {
        return id;
    }

    /**
     * The UPF device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The UE's address.
     *
     * @return address
     */
    public Ip4Address ueAddress() {
        return ueAddress;
    }

    /**
     * The N3 address the gNodeB sends the uplink to.
     *
     * @return address
     */
    public Ip4Address n3Address() {
        return n3Address;
    }

    /**
     * The uplink TEID (this UPF's, unique per N3 address).
     *
     * @return TEID
     */
    public long uplinkTeid() {
        return uplinkTeid;
    }

    /**
     * The gNodeB's address, the downlink tunnel's far end.
     *
     * @return address
     */
    public Ip4Address gnbAddress() {
        return gnbAddress;
    }

    /**
     * The downlink TEID (the gNodeB's).
     *
     * @return TEID
     */
    public long downlinkTeid() {
        return downlinkTeid;
    }

    /**
     * The downlink tunnel's outer UDP source port.
     *
     * @return port (GTPU_PORT unless given)
     */
    public int gnbPort() {
        return gnbPort;
    }

    /**
     * The QoS flow identifier of the session's default flow.
     *
     * @return 0-63
     */
    public int qfi() {
        return qfi;
    }

    /**
     * The session AMBR.
     *
     * @return meter, empty when unmetered
     */
    public Optional<UpfMeter> ambr() {
        return Optional.ofNullable(ambr);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PduSession)) {
            return false;
        }
        PduSession s = (PduSession) o;
        return id == s.id && uplinkTeid == s.uplinkTeid && downlinkTeid == s.downlinkTeid
                && gnbPort == s.gnbPort && qfi == s.qfi && deviceId.equals(s.deviceId)
                && ueAddress.equals(s.ueAddress) && n3Address.equals(s.n3Address)
                && gnbAddress.equals(s.gnbAddress) && Objects.equals(ambr, s.ambr);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, deviceId, ueAddress, uplinkTeid, downlinkTeid);
    }

    @Override
    public String toString() {
        return "session " + id + " " + deviceId + " ue " + ueAddress + " up " + n3Address + "/0x"
                + Long.toHexString(uplinkTeid) + " down " + gnbAddress + "/0x"
                + Long.toHexString(downlinkTeid) + " qfi " + qfi;
    }

    /** Builds a session, checking each value as it is set. */
    public static final class Builder {
        private long id;
        private DeviceId deviceId;
        private Ip4Address ueAddress;
        private Ip4Address n3Address;
        private long uplinkTeid = -1;
        private Ip4Address gnbAddress;
        private long downlinkTeid = -1;
        private int gnbPort = GTPU_PORT;
        private int qfi;
        private UpfMeter ambr;

        private Builder() {
        }

        /**
         * The service's id.
         *
         * @param id id
         * @return this builder
         */
        public Builder id(long id) {
            this.id = id;
            return this;
        }

        /**
         * The device.
         *
         * @param deviceId device
         * @return this builder
         */
        public Builder deviceId(DeviceId deviceId) {
            this.deviceId = deviceId;
            return this;
        }

        /**
         * The UE's address.
         *
         * @param address address
         * @return this builder
         */
        public Builder ueAddress(Ip4Address address) {
            this.ueAddress = address;
            return this;
        }

        /**
         * The N3 address.
         *
         * @param address address
         * @return this builder
         */
        public Builder n3Address(Ip4Address address) {
            this.n3Address = address;
            return this;
        }

        /**
         * The uplink TEID.
         *
         * @param teid 1 to 2^32 - 1
         * @return this builder
         */
        public Builder uplinkTeid(long teid) {
            this.uplinkTeid = teid("uplinkTeid", teid);
            return this;
        }

        /**
         * The gNodeB's address.
         *
         * @param address address
         * @return this builder
         */
        public Builder gnbAddress(Ip4Address address) {
            this.gnbAddress = address;
            return this;
        }

        /**
         * The downlink TEID.
         *
         * @param teid 1 to 2^32 - 1
         * @return this builder
         */
        public Builder downlinkTeid(long teid) {
            this.downlinkTeid = teid("downlinkTeid", teid);
            return this;
        }

        /**
         * The downlink tunnel's outer UDP source port.
         *
         * @param port 1-65535
         * @return this builder
         */
        public Builder gnbPort(long port) {
            if (port < 1 || port > PortRange.MAX_PORT) {
                throw FlowBufException.invalid("gnbPort must be between 1 and %d, got %d",
                                               PortRange.MAX_PORT, port);
            }
            this.gnbPort = (int) port;
            return this;
        }

        /**
         * The QFI.
         *
         * @param qfi 0-63
         * @return this builder
         */
        public Builder qfi(long qfi) {
            this.qfi = checkQfi(qfi);
            return this;
        }

        /**
         * The session AMBR.
         *
         * @param meter meter, null for none
         * @return this builder
         */
        public Builder ambr(UpfMeter meter) {
            this.ambr = meter;
            return this;
        }

        /**
         * Builds the session.
         *
         * @return session
         * @throws FlowBufException INVALID when a required value is missing
         */
        public PduSession build() {
            require(deviceId, "deviceId");
            require(ueAddress, "ueAddress");
            require(n3Address, "n3Address");
            require(gnbAddress, "gnbAddress");
            if (uplinkTeid < 0) {
                throw FlowBufException.invalid("\"uplinkTeid\" is required");
            }
            if (downlinkTeid < 0) {
                throw FlowBufException.invalid("\"downlinkTeid\" is required");
            }
            return new PduSession(this);
        }

        private static void require(Object value, String field) {
            if (value == null) {
                throw FlowBufException.invalid("\"%s\" is required", field);
            }
        }

        private static long teid(String field, long teid) {
            if (teid < 1 || teid > MAX_TEID) {
                throw FlowBufException.invalid("%s must be between 1 and %d (2^32 - 1; 0 is "
                                                       + "reserved), got %d", field, MAX_TEID,
                                               teid);
            }
            return teid;
        }
    }

    /**
     * Checks a QFI.
     *
     * @param qfi value
     * @return it, as an int
     * @throws FlowBufException INVALID when out of 0-63
     */
    public static int checkQfi(long qfi) {
        if (qfi < 0 || qfi > MAX_QFI) {
            throw FlowBufException.invalid("qfi must be between 0 and %d, got %d", MAX_QFI, qfi);
        }
        return (int) qfi;
    }
}
