/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.PortNumber;

import java.util.Objects;
import java.util.Optional;

/**
 * Which packets of a device an intent applies to: an optional in-port and
 * an IPv4 5-tuple whose absent fields are wildcards.
 */
public final class FlowFilter {

    private static final int MAX_L4_PORT = 65535;
    private static final int MAX_IP_PROTO = 255;

    private final PortNumber inPort;
    private final IpPrefix ipv4Src;
    private final IpPrefix ipv4Dst;
    private final Integer ipProto;
    private final Integer l4SrcPort;
    private final Integer l4DstPort;

    private FlowFilter(Builder b) {
        this.inPort = b.inPort;
        this.ipv4Src = b.ipv4Src;
        this.ipv4Dst = b.ipv4Dst;
        this.ipProto = b.ipProto;
        this.l4SrcPort = b.l4SrcPort;
        this.l4DstPort = b.l4DstPort;
    }

    /**
     * In-port, if the filter names one.
     *
     * @return port
     */
    public Optional<PortNumber> inPort() {
        return Optional.ofNullable(inPort);
    }

    /**
     * IPv4 source prefix.
     *
     * @return prefix
     */
    public Optional<IpPrefix> ipv4Src() {
        return Optional.ofNullable(ipv4Src);
    }

    /**
     * IPv4 destination prefix.
     *
     * @return prefix
     */
    public Optional<IpPrefix> ipv4Dst() {
        return Optional.ofNullable(ipv4Dst);
    }

    /**
     * IP protocol number.
     *
     * @return protocol
     */
    public Optional<Integer> ipProto() {
        return Optional.ofNullable(ipProto);
    }

    /**
     * L4 (TCP/UDP) source port.
     *
     * @return port
     */
    public Optional<Integer> l4SrcPort() {
        return Optional.ofNullable(l4SrcPort);
    }

    /**
     * L4 (TCP/UDP) destination port.
     *
     * @return port
     */
    public Optional<Integer> l4DstPort() {
        return Optional.ofNullable(l4DstPort);
    }

    /**
     * Whether the filter names no IPv4 field: every IPv4 packet (of its
     * in-port, when it has one) matches it. Requests must say so explicitly
     * (JSON {@code "all": true}, CLI {@code --all}).
     *
     * @return true when only the in-port, if anything, narrows the filter
     */
    public boolean matchesEveryIpv4Packet() {
        return ipv4Src == null && ipv4Dst == null && ipProto == null && l4SrcPort == null
                && l4DstPort == null;
    }

    /**
     * The same filter without its in-port.
     *
     * @return the copy
     */
    public FlowFilter withoutInPort() {
        return new Builder(this).inPort(null).build();
    }

    /**
     * The same filter on a given in-port.
     *
     * @param port in-port
     * @return the copy
     */
    public FlowFilter withInPort(PortNumber port) {
        return new Builder(this).inPort(port).build();
    }

    /**
     * The same filter on a given in-port, refusing a filter that names
     * another one (a request that says both must agree).
     *
     * @param port in-port
     * @return the copy
     * @throws FlowBufException INVALID when the filter's own in-port differs
     */
    public FlowFilter atInPort(PortNumber port) {
        if (inPort != null && !inPort.equals(port)) {
            throw FlowBufException.invalid("filter in-port %s differs from inPort %s", inPort,
                                           port);
        }
        return withInPort(port);
    }

    /**
     * Returns an empty builder (everything wildcarded).
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof FlowFilter)) {
            return false;
        }
        FlowFilter f = (FlowFilter) o;
        return Objects.equals(inPort, f.inPort) && Objects.equals(ipv4Src, f.ipv4Src)
                && Objects.equals(ipv4Dst, f.ipv4Dst) && Objects.equals(ipProto, f.ipProto)
                && Objects.equals(l4SrcPort, f.l4SrcPort) && Objects.equals(l4DstPort, f.l4DstPort);
    }

    @Override
    public int hashCode() {
        return Objects.hash(inPort, ipv4Src, ipv4Dst, ipProto, l4SrcPort, l4DstPort);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).omitNullValues().add("inPort", inPort)
                .add("ipv4Src", ipv4Src).add("ipv4Dst", ipv4Dst).add("ipProto", ipProto)
                .add("l4SrcPort", l4SrcPort).add("l4DstPort", l4DstPort).toString();
    }

    /** Builds a checked filter. */
    public static final class Builder {
        private PortNumber inPort;
        private IpPrefix ipv4Src;
        private IpPrefix ipv4Dst;
        private Integer ipProto;
        private Integer l4SrcPort;
        private Integer l4DstPort;

        private Builder() {
        }

        private Builder(FlowFilter f) {
            inPort = f.inPort;
            ipv4Src = f.ipv4Src;
            ipv4Dst = f.ipv4Dst;
            ipProto = f.ipProto;
            l4SrcPort = f.l4SrcPort;
            l4DstPort = f.l4DstPort;
        }

        /**
         * Sets the in-port.
         *
         * @param port port, or null for any
         * @return this builder
         */
        public Builder inPort(PortNumber port) {
            this.inPort = port;
            return this;
        }

        /**
         * Sets the IPv4 source prefix.
         *
         * @param prefix IPv4 prefix, or null for any
         * @return this builder
         */
        public Builder ipv4Src(IpPrefix prefix) {
            this.ipv4Src = checkV4(prefix, "ipv4Src");
            return this;
        }

        /**
         * Sets the IPv4 destination prefix.
         *
         * @param prefix IPv4 prefix, or null for any
         * @return this builder
         */
        public Builder ipv4Dst(IpPrefix prefix) {
            this.ipv4Dst = checkV4(prefix, "ipv4Dst");
            return this;
        }

        /**
         * Sets the IP protocol.
         *
         * @param proto 0..255
         * @return this builder
         */
        public Builder ipProto(int proto) {
            this.ipProto = checkRange(proto, MAX_IP_PROTO, "ipProto");
            return this;
        }

        /**
         * Sets the L4 source port.
         *
         * @param port 0..65535
         * @return this builder
         */
        public Builder l4SrcPort(int port) {
            this.l4SrcPort = checkRange(port, MAX_L4_PORT, "l4SrcPort");
            return this;
        }

        /**
         * Sets the L4 destination port.
         *
         * @param port 0..65535
         * @return this builder
         */
        public Builder l4DstPort(int port) {
            this.l4DstPort = checkRange(port, MAX_L4_PORT, "l4DstPort");
            return this;
        }

        /**
         * Builds the filter.
         *
         * @return the filter
         * @throws FlowBufException INVALID when L4 ports are given without protocol TCP or UDP
         */
        public FlowFilter build() {
            boolean l4 = l4SrcPort != null || l4DstPort != null;
            if (l4 && (ipProto == null || (ipProto != 6 && ipProto != 17))) {
                throw FlowBufException.invalid("l4SrcPort/l4DstPort need ipProto 6 (TCP) or 17 (UDP)");
            }
            return new FlowFilter(this);
        }

        private static IpPrefix checkV4(IpPrefix prefix, String name) {
            if (prefix != null && !prefix.isIp4()) {
                throw FlowBufException.invalid("%s must be an IPv4 prefix, got %s", name, prefix);
            }
            return prefix;
        }

        private static int checkRange(int value, int max, String name) {
            if (value < 0 || value > max) {
                throw FlowBufException.invalid("%s must be between 0 and %d, got %d", name, max, value);
            }
            return value;
        }
    }
}
