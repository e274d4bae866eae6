/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;
import org.onosproject.net.pi.model.PiActionParamModel;
import org.onosproject.net.pi.model.PiMatchFieldModel;
import org.onosproject.net.pi.model.PiMatchType;
import org.onosproject.net.pi.model.PiMeterModel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.flowbuf.pipeconf.P4Model.MODEL;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.flowbuf.pipeconf.P4Model.table;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.flowbuf.pipeconf.UpfP4Names.*;

/**
 * The UPF names the control plane writes are those of the committed p4info,
 * with the keys, match kinds, parameters and widths it expects; the values
 * are those of defines.p4.
 */
public class UpfP4NamesTest {

    private static String key(org.onosproject.net.pi.model.PiMatchFieldId id, PiMatchType type, int bits) {
        return id.id() + " " + type + " " + bits;
    }

    private static String param(org.onosproject.net.pi.model.PiActionParamId id, int bits) {
        return id.id() + " " + bits;
    }

    @Test
    public void tablesHaveTheKeysTheControlPlaneWrites() {
        assertEquals(key(KEY_IPV4_DST, PiMatchType.LPM, 32), keys(INTERFACES));
        assertEquals(String.join(", ", key(KEY_N3_ADDR, PiMatchType.EXACT, 32),
                                 key(KEY_TEID, PiMatchType.EXACT, 32)), keys(UPLINK_SESSIONS));
        assertEquals(key(KEY_UE_ADDR, PiMatchType.EXACT, 32), keys(DOWNLINK_SESSIONS));
        String terminationKeys = String.join(", ", key(KEY_UE_ADDR, PiMatchType.EXACT, 32),
                                             key(KEY_APP_ID, PiMatchType.EXACT, 8));
        assertEquals(terminationKeys, keys(UPLINK_TERMINATIONS));
        assertEquals(terminationKeys, keys(DOWNLINK_TERMINATIONS));
        String fiveTuple = String.join(", ", key(KEY_UE_ADDR, PiMatchType.TERNARY, 32),
                                       key(KEY_APP_ADDR, PiMatchType.TERNARY, 32),
                                       key(KEY_IP_PROTO, PiMatchType.TERNARY, 8),
                                       key(KEY_UE_PORT, PiMatchType.RANGE, 16),
                                       key(KEY_APP_PORT, PiMatchType.RANGE, 16));
        assertEquals(fiveTuple, keys(APPLICATIONS));
        assertEquals(key(KEY_DIRECTION, PiMatchType.TERNARY, 2) + ", " + fiveTuple, keys(FIREWALL));
        assertEquals(key(KEY_TUNNEL_PEER_ID, PiMatchType.EXACT, 16), keys(TUNNEL_PEERS));
        assertEquals(key(KEY_QFI, PiMatchType.EXACT, 6), keys(QUEUES));
    }

    @Test
    public void actionsHaveTheParametersTheControlPlaneWrites() {
        String ctr = param(CTR_IDX, 16);
        String meter = param(METER_IDX, 16);
        assertEquals("", params(INTERFACES, IFACE_ACCESS));
        assertEquals("", params(INTERFACES, IFACE_CORE));
        assertEquals("", params(FIREWALL, FIREWALL_ALLOW));
        assertEquals("", params(FIREWALL, FIREWALL_DENY));
        assertEquals(ctr + ", " + meter, params(UPLINK_SESSIONS, SET_UPLINK_SESSION));
        assertEquals(ctr, params(UPLINK_SESSIONS, UPLINK_SESSION_DROP));
        String downlink = String.join(", ", ctr, meter, param(TUNNEL_PEER_ID, 16));
        assertEquals(downlink, params(DOWNLINK_SESSIONS, SET_DOWNLINK_SESSION));
        assertEquals(downlink + ", " + param(BUFFER_PORT, FlowBufP4Names.PORT_BITS),
                     params(DOWNLINK_SESSIONS, SET_DOWNLINK_SESSION_BUF));
        assertEquals(ctr, params(DOWNLINK_SESSIONS, DOWNLINK_SESSION_DROP));
        assertEquals(param(APP_ID, 8), params(APPLICATIONS, SET_APP_ID));
        assertEquals(String.join(", ", ctr, meter, param(QFI, 6)),
                     params(UPLINK_TERMINATIONS, UPLINK_TERM_FWD));
        assertEquals(String.join(", ", ctr, meter, param(TEID, 32), param(QFI, 6)),
                     params(DOWNLINK_TERMINATIONS, DOWNLINK_TERM_FWD));
        assertEquals("", params(UPLINK_TERMINATIONS, TERM_DROP));
        assertEquals("", params(DOWNLINK_TERMINATIONS, TERM_DROP));
        assertEquals(String.join(", ", param(SRC_ADDR, 32), param(DST_ADDR, 32), param(SPORT, 16)),
                     params(TUNNEL_PEERS, SET_TUNNEL_PEER));
        assertEquals(param(PRIORITY, 3), params(QUEUES, SET_QUEUE));
    }

    @Test
    public void countersAndMetersHaveTheirCells() {
        for (var id : List.of(SESSION_COUNTER, TERMINATION_COUNTER)) {
            assertEquals(id + " cells", INDEX_CELLS,
                         MODEL.counter(id).orElseThrow(() -> new AssertionError(id + " missing")).size());
        }
        assertEquals(DROP_REASONS, MODEL.counter(DROPS).orElseThrow().size());
        for (var id : List.of(SESSION_METER, APP_METER)) {
            PiMeterModel meter = MODEL.meter(id).orElseThrow(() -> new AssertionError(id + " missing"));
            assertEquals(id + " cells", INDEX_CELLS, meter.size());
            assertEquals(PiMeterModel.Unit.BYTES, meter.unit());
        }
    }

    @Test
    public void valuesAreThoseOfDefines() throws IOException {
        String defines = Files.readString(Path.of("p4src", "include", "defines.p4"));
        Map<String, Integer> want = Map.ofEntries(
                Map.entry("UPF_DROP_MALFORMED_GTPU", DROP_MALFORMED_GTPU),
                Map.entry("UPF_DROP_UPLINK_SESSION_MISS", DROP_UPLINK_SESSION_MISS),
                Map.entry("UPF_DROP_DOWNLINK_SESSION_MISS", DROP_DOWNLINK_SESSION_MISS),
                Map.entry("UPF_DROP_SESSION_DROP", DROP_SESSION_DROP),
                Map.entry("UPF_DROP_TERMINATION_MISS", DROP_TERMINATION_MISS),
                Map.entry("UPF_DROP_TERMINATION_DROP", DROP_TERMINATION_DROP),
                Map.entry("UPF_DROP_TUNNEL_PEER_MISS", DROP_TUNNEL_PEER_MISS),
                Map.entry("UPF_DROP_SESSION_METER", DROP_SESSION_METER),
                Map.entry("UPF_DROP_APP_METER", DROP_APP_METER),
                Map.entry("UPF_DROP_FIREWALL", DROP_FIREWALL),
                Map.entry("UPF_DROP_GTPU_TO_UE", DROP_GTPU_TO_UE),
                Map.entry("UPF_DROP_REASONS", DROP_REASONS),
                Map.entry("UPF_DIR_UPLINK", DIRECTION_UPLINK),
                Map.entry("UPF_DIR_DOWNLINK", DIRECTION_DOWNLINK),
                Map.entry("APP_ID_DEFAULT", APP_ID_DEFAULT));
        Matcher m = Pattern.compile("const \\w+(?:<\\d+>)? (\\w+) = (\\d+);").matcher(defines);
        int found = 0;
        while (m.find()) {
            Integer value = want.get(m.group(1));
            if (value != null) {
                assertEquals(m.group(1), (int) value, Integer.parseInt(m.group(2)));
                found++;
            }
        }
        assertEquals("constants of defines.p4 checked", want.size(), found);
        assertTrue("UPF_INDEX_CELLS", defines.contains("#define UPF_INDEX_CELLS " + INDEX_CELLS));
    }

    @Test
    public void widthsOfTheKeysAgreeWithTheParametersThatFeedThem() {
        // A termination's TEID is what the uplink session table matches;
        // a session's tunnel peer id is the tunnel peers' key.
        PiMatchFieldModel teid = table(UPLINK_SESSIONS).matchField(KEY_TEID).orElseThrow();
        PiActionParamModel teidParam = table(DOWNLINK_TERMINATIONS).action(DOWNLINK_TERM_FWD)
                .orElseThrow().param(TEID).orElseThrow();
        assertEquals(teid.bitWidth(), teidParam.bitWidth());
        assertEquals(table(TUNNEL_PEERS).matchField(KEY_TUNNEL_PEER_ID).orElseThrow().bitWidth(),
                     table(DOWNLINK_SESSIONS).action(SET_DOWNLINK_SESSION).orElseThrow()
                             .param(TUNNEL_PEER_ID).orElseThrow().bitWidth());
    }
}
