/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onlab.packet.Ip4Prefix;

import java.util.Objects;
import java.util.Optional;

/**
 * The UE's view of a flow, as the UPF's applications and firewall match it
 * in both directions: the UE's address and port, the data network's
 * (application's) address and port, the IP protocol. Absent fields match
 * everything.
 */
public final class UpfFilter {

    /** The largest IP protocol number. */
    public static final int MAX_IP_PROTO = 255;

    private final Ip4Prefix ueAddress;
    private final Ip4Prefix appAddress;
    private final Integer ipProto;
    private final PortRange uePort;
    private final PortRange appPort;

    private UpfFilter(Builder b) {
        this.ueAddress = b.ueAddress;
        this.appAddress = b.appAddress;
        this.ipProto = b.ipProto;
        this.uePort = b.uePort;
        this.appPort = b.appPort;
    }

    /**
     * A builder; nothing set matches every packet.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The UE's prefix.
     *
     * @return prefix, empty for any
     */
    public Optional<Ip4Prefix> ueAddress() {
        return Optional.ofNullable(ueAddress);
    }

    /**
     * The data network's prefix.
     *
     * @return prefix, empty for any
     */
    public Optional<Ip4Prefix> appAddress() {
        return Optional.ofNullable(appAddress);
    }

    /**
     * IP protocol.
     *
     * @return protocol, empty for any
     */
    public Optional<Integer> ipProto() {
        return Optional.ofNullable(ipProto);
    }

    /**
     * The UE's L4 ports.
     *
     * @return range
     */
    public PortRange uePort() {
        return uePort;
    }

    /**
     * The data network's L4 ports.
     *
     * @return range
     */
    public PortRange appPort() {
        return appPort;
    }

    /**
     * Whether nothing is set.
     *
     * @return true when the filter matches every packet
     */
    public boolean matchesEverything() {
        return ueAddress == null && appAddress == null && ipProto == null && uePort.isAny()
                && appPort.isAny();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UpfFilter)) {
            return false;
        }
        UpfFilter f = (UpfFilter) o;
        return Objects.equals(ueAddress, f.ueAddress) && Objects.equals(appAddress, f.appAddress)
                && Objects.equals(ipProto, f.ipProto) && uePort.equals(f.uePort)
                && appPort.equals(f.appPort);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ueAddress, appAddress, ipProto, uePort, appPort);
    }

    @Override
    public String toString() {
        return "ue " + (ueAddress == null ? "*" : ueAddress) + ":" + uePort + " app "
                + (appAddress == null ? "*" : appAddress) + ":" + appPort + " proto "
                + (ipProto == null ? "*" : ipProto);
    }

    /** Builds a filter. */
    public static final class Builder {
        private Ip4Prefix ueAddress;
        private Ip4Prefix appAddress;
        private Integer ipProto;
        private PortRange uePort = PortRange.ANY;
        private PortRange appPort = PortRange.ANY;

        private Builder() {
        }

        /**
         * The UE's prefix.
         *
         * @param prefix prefix
         * @return this builder
         */
        public Builder ueAddress(Ip4Prefix prefix) {
            this.ueAddress = prefix;
            return this;
        }

        /**
         * The data network's prefix.
         *
         * @param prefix prefix
         * @return this builder
         */
        public Builder appAddress(Ip4Prefix prefix) {
            this.appAddress = prefix;
            return this;
        }

        /**
         * IP protocol.
         *
         * @param proto 0-255
         * @return this builder
         * @throws FlowBufException INVALID when out of range
         */
        public Builder ipProto(long proto) {
            if (proto < 0 || proto > MAX_IP_PROTO) {
                throw FlowBufException.invalid("ipProto must be between 0 and %d, got %d",
                                               MAX_IP_PROTO, proto);
            }
            this.ipProto = (int) proto;
            return this;
        }

        /**
         * The UE's ports.
         *
         * @param range range
         * @return this builder
         */
        public Builder uePort(PortRange range) {
            this.uePort = Objects.requireNonNull(range);
            return this;
        }

        /**
         * The data network's ports.
         *
         * @param range range
         * @return this builder
         */
        public Builder appPort(PortRange range) {
            this.appPort = Objects.requireNonNull(range);
            return this;
        }

        /**
         * Builds the filter.
         *
         * @return filter
         */
        public UpfFilter build() {
            return new UpfFilter(this);
        }
    }
}
