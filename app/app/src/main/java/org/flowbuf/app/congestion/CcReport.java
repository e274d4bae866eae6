/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.pipeconf.CcP4Names;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A switch-over report: what congestion.p4 sends the controller as a
 * packet-in where it takes no digests (its cc_switch entry asks for them).
 * The frame is Ethernet of type 0x88b6, then cc_report_t: flow 16 bits,
 * switch id 16, queuing delay µs 32, processing delay µs 32, then a byte
 * whose low bit is the slot the flow takes now. A notification has the same
 * type but is one byte shorter, and never goes to the controller; a report
 * is truncated to exactly its headers.
 */
public final class CcReport {

    private static final int ETH_HDR_BYTES = 14;
    private static final int ETHERTYPE_AT = 12;

    private CcReport() {
    }

    /**
     * The digest a report frame carries.
     *
     * @param frame a packet-in's frame
     * @return the digest, empty when the frame is no report
     */
    public static Optional<CcDigest> decode(byte[] frame) {
        if (frame.length != ETH_HDR_BYTES + CcP4Names.REPORT_BYTES) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        if (Short.toUnsignedInt(b.getShort(ETHERTYPE_AT)) != CcP4Names.ETHERTYPE_NOTIFY) {
            return Optional.empty();
        }
        b.position(ETH_HDR_BYTES);
        int flow = Short.toUnsignedInt(b.getShort());
        int switchId = Short.toUnsignedInt(b.getShort());
        long queueUs = Integer.toUnsignedLong(b.getInt());
        long procUs = Integer.toUnsignedLong(b.getInt());
        int slot = b.get() & 1;
        return Optional.of(new CcDigest(flow, switchId, slot, queueUs, procUs));
    }
}
