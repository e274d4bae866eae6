/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.host.netcfg.Netcfg;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4DataOuterClass.P4StructLike;
import p4.v1.P4RuntimeOuterClass.DigestList;

import java.time.Instant;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * hh_digest_t as a switch sends it (shortest bytestrings), decoded; the
 * netcfg section of the detector's settings.
 */
public class HhDigestsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    private static P4Data bits(long value) {
        byte[] full = java.math.BigInteger.valueOf(value).toByteArray();
        int skip = 0;
        while (skip < full.length - 1 && full[skip] == 0) {
            skip++;
        }
        return P4Data.newBuilder().setBitstring(ByteString.copyFrom(full, skip,
                                                                    full.length - skip)).build();
    }

    private static P4Data digest(long... members) {
        P4StructLike.Builder s = P4StructLike.newBuilder();
        for (long m : members) {
            s.addMembers(bits(m));
        }
        return P4Data.newBuilder().setStruct(s).build();
    }

    @Test
    public void aDigestIsTheUeItsFlowAndItsEwma() {
        Instant at = Instant.parse("2026-11-28T23:00:00Z");
        DigestList list = DigestList.newBuilder().setDigestId(7)
                .addData(digest(0x0afa0001L, 0x0a000202L, 17, 4000, 8080, 6425, 51234))
                // A high UE address (its first byte over 127) and an EWMA over 32 bits.
                .addData(digest(0xc0a80101L, 0x0a000202L, 6, 443, 0, 1L << 40, 0))
                .addData(digest(1, 2, 3))  // not hh_digest_t: left out
                .build();
        List<HeavyHitter> got = HhDigests.decode(S1, list, at);
        assertEquals(2, got.size());
        HeavyHitter h = got.get(0);
        assertEquals("10.250.0.1", h.ueAddress().toString());
        assertEquals("10.0.2.2", h.appAddress().toString());
        assertEquals(17, h.ipProto());
        assertEquals(4000, h.uePort());
        assertEquals(8080, h.appPort());
        assertEquals(6425, h.ewmaEighthsUs());
        assertEquals(803.125, h.ewmaGapUs(), 1e-9);
        assertEquals(51234, h.cell());
        assertEquals(S1, h.deviceId());
        assertEquals(at, h.reportedAt());
        assertEquals("a list without a timestamp does not say when it was made",
                     java.util.Optional.empty(), h.emittedAt());
        assertEquals("192.168.1.1", got.get(1).ueAddress().toString());
        assertEquals(1L << 40, got.get(1).ewmaEighthsUs());
    }

    @Test
    public void theListsTimestampIsWhenTheSwitchMadeTheReport() {
        Instant made = Instant.parse("2026-11-28T22:59:59.998765432Z");
        DigestList list = DigestList.newBuilder().setDigestId(7)
                .setTimestamp(made.getEpochSecond() * 1_000_000_000L + made.getNano())
                .addData(digest(0x0afa0001L, 0x0a000202L, 17, 4000, 8080, 6425, 51234)).build();
        HeavyHitter h = HhDigests.decode(S1, list, made.plusMillis(2)).get(0);
        assertEquals(made, h.emittedAt().orElseThrow());
        assertEquals(made.plusMillis(2), h.reportedAt());
        assertEquals("10.250.0.1", h.ueAddress().toString());
    }

    private static Netcfg netcfg(String section) throws Exception {
        return Netcfg.parse(new ObjectMapper().readTree(
                "{\"apps\": {\"org.flowbuf.app\": {\"heavyHitters\": " + section + "}}}"));
    }

    @Test
    public void theNetcfgSectionSetsTheDetector() throws Exception {
        assertEquals(HeavyHitterSettings.defaults(), Netcfg.parse(new ObjectMapper().readTree("{}"))
                .heavyHitters());
        assertEquals(HeavyHitterSettings.of(true, 5_000_000, 1500, 250),
                     netcfg("{\"enabled\": true, \"rateBps\": 5000000, \"idleMs\": 250}")
                             .heavyHitters());
    }

    @Test
    public void aBadNetcfgSectionIsRefusedNamingIt() throws Exception {
        for (String bad : new String[]{"5", "{\"rateBps\": 1}", "{\"idleMs\": \"x\"}",
                                       "{\"rate\": 5}", "{\"packetBytes\": 1500, \"idleMs\": 1}"}) {
            try {
                netcfg(bad);
                fail("taken: " + bad);
            } catch (IllegalArgumentException e) {
                assertTrue(bad + ": " + e.getMessage(), e.getMessage().startsWith(
                        "netcfg apps.org.flowbuf.app.heavyHitters: "));
            }
        }
    }
}
