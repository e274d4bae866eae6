/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import com.google.common.base.MoreObjects;

import java.util.Optional;

/**
 * Counters of one buffer as its agent reports them.
 */
public final class BufferStatistics {

    private final long packetsIn;
    private final long bytesIn;
    private final long packetsOut;
    private final long bytesOut;
    private final long packetsDropped;
    private final long occupancyPackets;
    private final long occupancyBytes;
    private final long highWatermarkPackets;
    private final long oldestPacketAgeNanos;
    private final PacketId lastOutPacketId; // null until the buffer sent one
    private final boolean triggerArmed;
    private final long triggersFired;
    private final long triggerFailures;

    private BufferStatistics(Builder b) {
        this.triggerArmed = b.triggerArmed;
        this.triggersFired = b.triggersFired;
        this.triggerFailures = b.triggerFailures;
        this.packetsIn = b.packetsIn;
        this.bytesIn = b.bytesIn;
        this.packetsOut = b.packetsOut;
        this.bytesOut = b.bytesOut;
        this.packetsDropped = b.packetsDropped;
        this.occupancyPackets = b.occupancyPackets;
        this.occupancyBytes = b.occupancyBytes;
        this.highWatermarkPackets = b.highWatermarkPackets;
        this.oldestPacketAgeNanos = b.oldestPacketAgeNanos;
        this.lastOutPacketId = b.lastOutPacketId;
    }

    /**
     * Packets the buffer received.
     *
     * @return packets
     */
    public long packetsIn() {
        return packetsIn;
    }

    /**
     * Bytes the buffer received.
     *
     * @return bytes
     */
    public long bytesIn() {
        return bytesIn;
    }

    /**
     * Packets the buffer sent.
     *
     * @return packets
     */
    public long packetsOut() {
        return packetsOut;
    }

    /**
     * Bytes the buffer sent.
     *
     * @return bytes
     */
    public long bytesOut() {
        return bytesOut;
    }

    /**
     * Packets dropped, all causes together.
     *
     * @return packets
     */
    public long packetsDropped() {
        return packetsDropped;
    }

    /**
     * Packets held now.
     *
     * @return packets
     */
    public long occupancyPackets() {
        return occupancyPackets;
    }

    /**
     * Bytes held now.
     *
     * @return bytes
     */
    public long occupancyBytes() {
        return occupancyBytes;
    }

    /**
     * Highest number of packets held since creation.
     *
     * @return packets
     */
    public long highWatermarkPackets() {
        return highWatermarkPackets;
    }

    /**
     * Age of the oldest held packet; 0 when empty.
     *
     * @return nanoseconds
     */
    public long oldestPacketAgeNanos() {
        return oldestPacketAgeNanos;
    }

    /**
     * Id of the newest packet the buffer transmitted (not an ARQ resend):
     * FMM's synchronisation point, up to which the other buffers of the
     * stream are purged.
     *
     * @return the id; empty until the buffer has transmitted an IPv4
     *         TCP/UDP/ICMP packet
     */
    public Optional<PacketId> lastOutPacketId() {
        return Optional.ofNullable(lastOutPacketId);
    }

    /**
     * Whether a move is armed on this buffer ({@link BufferService#armMove}).
     *
     * @return true while armed
     */
    public boolean triggerArmed() {
        return triggerArmed;
    }

    /**
     * Armed moves this buffer's packets fired (the agent set the modes).
     *
     * @return count
     */
    public long triggersFired() {
        return triggersFired;
    }

    /**
     * Armed moves that fired but could not be applied (a vport was removed).
     *
     * @return count
     */
    public long triggerFailures() {
        return triggerFailures;
    }

    /**
     * Starts a builder; every counter defaults to 0.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("in", packetsIn).add("out", packetsOut)
                .add("dropped", packetsDropped).add("held", occupancyPackets)
                .add("lastOut", lastOutPacketId).omitNullValues().toString();
    }

    /** Builder of statistics. */
    public static final class Builder {
        private long packetsIn;
        private long bytesIn;
        private long packetsOut;
        private long bytesOut;
        private long packetsDropped;
        private long occupancyPackets;
        private long occupancyBytes;
        private long highWatermarkPackets;
        private long oldestPacketAgeNanos;
        private PacketId lastOutPacketId;
        private boolean triggerArmed;
        private long triggersFired;
        private long triggerFailures;

        private Builder() {
        }

        /**
         * Packets and bytes received.
         *
         * @param packets packets
         * @param bytes   bytes
         * @return this builder
         */
        public Builder received(long packets, long bytes) {
            this.packetsIn = packets;
            this.bytesIn = bytes;
            return this;
        }

        /**
         * Packets and bytes sent.
         *
         * @param packets packets
         * @param bytes   bytes
         * @return this builder
         */
        public Builder sent(long packets, long bytes) {
            this.packetsOut = packets;
            this.bytesOut = bytes;
            return this;
        }

        /**
         * Packets dropped.
         *
         * @param packets packets
         * @return this builder
         */
        public Builder dropped(long packets) {
            this.packetsDropped = packets;
            return this;
        }

        /**
         * Packets and bytes held now.
         *
         * @param packets packets
         * @param bytes   bytes
         * @return this builder
         */
        public Builder occupancy(long packets, long bytes) {
            this.occupancyPackets = packets;
            this.occupancyBytes = bytes;
            return this;
        }

        /**
         * Highest number of packets held.
         *
         * @param packets packets
         * @return this builder
         */
        public Builder highWatermark(long packets) {
            this.highWatermarkPackets = packets;
            return this;
        }

        /**
         * Age of the oldest held packet.
         *
         * @param nanos nanoseconds
         * @return this builder
         */
        public Builder oldestPacketAge(long nanos) {
            this.oldestPacketAgeNanos = nanos;
            return this;
        }

        /**
         * Id of the newest packet the buffer transmitted.
         *
         * @param id packet id; null when the buffer has transmitted none
         * @return this builder
         */
        public Builder lastOutPacketId(PacketId id) {
            this.lastOutPacketId = id;
            return this;
        }

        /**
         * The buffer's trigger: armed now, fires applied, fires that failed.
         *
         * @param armed    whether a move is armed
         * @param fired    fires applied
         * @param failures fires that could not be applied
         * @return this builder
         */
        public Builder trigger(boolean armed, long fired, long failures) {
            this.triggerArmed = armed;
            this.triggersFired = fired;
            this.triggerFailures = failures;
            return this;
        }

        /**
         * Builds the statistics.
         *
         * @return statistics
         */
        public BufferStatistics build() {
            return new BufferStatistics(this);
        }
    }
}
