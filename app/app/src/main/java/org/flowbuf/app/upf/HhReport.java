/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.pipeconf.HhP4Names;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Optional;

/**
 * A heavy-hitter report: what include/hh.p4 sends the controller as a
 * packet-in where it takes no digests (its hh_cpu_report asks for them).
 * The frame is Ethernet of type 0x88b8, then hh_report_t, hh_digest_t's
 * fields in its order: UE address 32 bits, data network address 32, IP
 * protocol 8, UE port 16, data network port 16, EWMA gap 48 (1/8 µs),
 * register cell 32. The switch truncates it to exactly these headers.
 */
public final class HhReport {

    private static final int ETH_HDR_BYTES = 14;
    private static final int ETHERTYPE_AT = 12;

    private HhReport() {
    }

    /**
     * The report a frame carries.
     *
     * @param device     the switch it came from
     * @param frame      a packet-in's frame
     * @param receivedAt when it came
     * @return the report, empty when the frame is none
     */
    public static Optional<HeavyHitter> decode(DeviceId device, byte[] frame, Instant receivedAt) {
        if (frame.length != ETH_HDR_BYTES + HhP4Names.REPORT_BYTES) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        if (Short.toUnsignedInt(b.getShort(ETHERTYPE_AT)) != HhP4Names.ETHERTYPE_REPORT) {
            return Optional.empty();
        }
        b.position(ETH_HDR_BYTES);
        Ip4Address ue = Ip4Address.valueOf(b.getInt());
        Ip4Address app = Ip4Address.valueOf(b.getInt());
        int proto = Byte.toUnsignedInt(b.get());
        int uePort = Short.toUnsignedInt(b.getShort());
        int appPort = Short.toUnsignedInt(b.getShort());
        long ewma = (Short.toUnsignedLong(b.getShort()) << 32) | Integer.toUnsignedLong(b.getInt());
        long cell = Integer.toUnsignedLong(b.getInt());
        return Optional.of(new HeavyHitter(device, ue, app, proto, uePort, appPort, ewma, cell,
                                           receivedAt));
    }
}
