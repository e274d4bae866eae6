/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.pipeconf.HhP4Names;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4RuntimeOuterClass.DigestList;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The reports of a DigestList of hh_digest_t (include/hh.p4): ue_addr,
 * app_addr, ip_proto, ue_port, app_port, ewma, index.
 */
final class HhDigests {

    private HhDigests() {
    }

    /**
     * The reports of a list; malformed entries are left out.
     *
     * @param device     the switch it came from
     * @param list       the list
     * @param receivedAt when it came
     * @return reports
     */
    static List<HeavyHitter> decode(DeviceId device, DigestList list, Instant receivedAt) {
        List<HeavyHitter> reports = new ArrayList<>();
        // P4Runtime's timestamp: when the switch made the list (0: not said).
        Instant made = list.getTimestamp() > 0 ? Instant.EPOCH.plusNanos(list.getTimestamp()) : null;
        for (P4Data data : list.getDataList()) {
            List<P4Data> m = data.getStruct().getMembersList();
            if (m.size() != HhP4Names.DIGEST_MEMBERS) {
                continue;
            }
            HeavyHitter report = new HeavyHitter(device, address(m.get(0)), address(m.get(1)),
                                                 (int) value(m.get(2)), (int) value(m.get(3)),
                                                 (int) value(m.get(4)), value(m.get(5)),
                                                 value(m.get(6)), receivedAt);
            reports.add(made != null ? report.withEmittedAt(made) : report);
        }
        return reports;
    }

    private static Ip4Address address(P4Data d) {
        return Ip4Address.valueOf((int) value(d));
    }

    private static long value(P4Data d) {
        return new BigInteger(1, d.getBitstring().toByteArray()).longValue();
    }
}
