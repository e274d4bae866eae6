/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/**
 * Identifies an IPv4 packet across buffers that hold copies of it (FMM's
 * inter-buffer synchronisation): its IPv4 identification and its TCP/UDP
 * (or ICMP) checksum, 16 bits each.
 */
public final class PacketId {

    private static final int MAX_16_BITS = 0xffff;

    private final int ipv4Id;
    private final int l4Checksum;

    private PacketId(int ipv4Id, int l4Checksum) {
        this.ipv4Id = ipv4Id;
        this.l4Checksum = l4Checksum;
    }

    /**
     * A packet id.
     *
     * @param ipv4Id     IPv4 identification, 0..65535
     * @param l4Checksum TCP/UDP/ICMP checksum, 0..65535
     * @return the id
     * @throws FlowBufException INVALID when a field is out of range
     */
    public static PacketId of(long ipv4Id, long l4Checksum) {
        if (ipv4Id < 0 || ipv4Id > MAX_16_BITS || l4Checksum < 0 || l4Checksum > MAX_16_BITS) {
            throw FlowBufException.invalid("a packet id is two 16-bit numbers, not %d/%d", ipv4Id,
                                           l4Checksum);
        }
        return new PacketId((int) ipv4Id, (int) l4Checksum);
    }

    /**
     * IPv4 identification.
     *
     * @return 0..65535
     */
    public int ipv4Id() {
        return ipv4Id;
    }

    /**
     * TCP/UDP/ICMP checksum.
     *
     * @return 0..65535
     */
    public int l4Checksum() {
        return l4Checksum;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PacketId && ((PacketId) o).ipv4Id == ipv4Id
                && ((PacketId) o).l4Checksum == l4Checksum;
    }

    @Override
    public int hashCode() {
        return ipv4Id * 65536 + l4Checksum;
    }

    @Override
    public String toString() {
        return ipv4Id + "/" + l4Checksum;
    }
}
