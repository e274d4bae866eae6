/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/** Size and behaviour of a buffer, checked when built. */
public final class BufferSpec {

    /** Largest buffer the service asks any agent for (1 GiB). */
    public static final long MAX_BYTES = 1L << 30;
    /** Largest packet count the service asks any agent for. */
    public static final long MAX_PACKETS = 1L << 24;

    private final long capacityBytes;
    private final long capacityPackets;
    private final QueueType queueType;
    private final OverflowPolicy overflow;

    private BufferSpec(Builder b) {
        this.capacityBytes = b.capacityBytes;
        this.capacityPackets = b.capacityPackets;
        this.queueType = b.queueType;
        this.overflow = b.overflow;
    }

    /**
     * Capacity in frame bytes; 0 means no byte limit.
     *
     * @return bytes
     */
    public long capacityBytes() {
        return capacityBytes;
    }

    /**
     * Capacity in packets; 0 means no packet limit.
     *
     * @return packets
     */
    public long capacityPackets() {
        return capacityPackets;
    }

    /**
     * Queue discipline.
     *
     * @return the queue type
     */
    public QueueType queueType() {
        return queueType;
    }

    /**
     * Overflow policy.
     *
     * @return the policy
     */
    public OverflowPolicy overflow() {
        return overflow;
    }

    /**
     * Returns a builder with FIFO and drop-tail preset.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The spec of a buffer nobody sized: 200,000 packets or 64 MiB, FIFO,
     * drop-tail (a few seconds of a 1 Gbit/s flow).
     *
     * @return default spec
     */
    public static BufferSpec defaults() {
        return builder().capacityBytes(64L << 20).capacityPackets(200_000).build();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BufferSpec)) {
            return false;
        }
        BufferSpec that = (BufferSpec) o;
        return capacityBytes == that.capacityBytes && capacityPackets == that.capacityPackets
                && queueType == that.queueType && overflow == that.overflow;
    }

    @Override
    public int hashCode() {
        return Objects.hash(capacityBytes, capacityPackets, queueType, overflow);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("bytes", capacityBytes)
                .add("packets", capacityPackets).add("queue", queueType)
                .add("overflow", overflow).toString();
    }

    /** Builds a checked BufferSpec. */
    public static final class Builder {
        private long capacityBytes;
        private long capacityPackets;
        private QueueType queueType = QueueType.FIFO;
        private OverflowPolicy overflow = OverflowPolicy.DROP_TAIL;

        private Builder() {
        }

        /**
         * Sets the byte capacity.
         *
         * @param bytes 0 (no limit) to MAX_BYTES
         * @return this builder
         */
        public Builder capacityBytes(long bytes) {
            this.capacityBytes = bytes;
            return this;
        }

        /**
         * Sets the packet capacity.
         *
         * @param packets 0 (no limit) to MAX_PACKETS
         * @return this builder
         */
        public Builder capacityPackets(long packets) {
            this.capacityPackets = packets;
            return this;
        }

        /**
         * Sets the queue type.
         *
         * @param type queue type
         * @return this builder
         */
        public Builder queueType(QueueType type) {
            this.queueType = type;
            return this;
        }

        /**
         * Sets the overflow policy.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder overflow(OverflowPolicy policy) {
            this.overflow = policy;
            return this;
        }

        /**
         * Builds the spec.
         *
         * @return the spec
         * @throws FlowBufException INVALID for a size out of range or no size at all
         */
        public BufferSpec build() {
            check(capacityBytes, MAX_BYTES, "capacityBytes");
            check(capacityPackets, MAX_PACKETS, "capacityPackets");
            if (capacityBytes == 0 && capacityPackets == 0) {
                throw FlowBufException.invalid("a buffer needs capacityBytes or capacityPackets");
            }
            if (queueType == null || overflow == null) {
                throw FlowBufException.invalid("queueType and overflow must be set");
            }
            return new BufferSpec(this);
        }

        private static void check(long value, long max, String name) {
            if (value < 0 || value > max) {
                throw FlowBufException.invalid("%s must be between 0 and %d, got %d", name, max, value);
            }
        }
    }
}
