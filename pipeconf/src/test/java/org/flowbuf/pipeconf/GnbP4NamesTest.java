/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;
import org.onosproject.net.pi.model.PiRegisterId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.flowbuf.pipeconf.GnbP4Names.*;
import static org.flowbuf.pipeconf.P4Model.MODEL;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The gNodeB names a controller writes are those of the committed p4info;
 * the constants are those of defines.p4.
 */
public class GnbP4NamesTest {

    @Test
    public void tablesHaveTheKeysAndParamsTheControllerWrites() {
        assertEquals(KEY_INGRESS_PORT.id() + " EXACT 9", keys(PORTS));
        assertEquals("", params(PORTS, FROM_UPF));
        assertEquals(KEY_TEID.id() + " EXACT 32", keys(DOWNLINK_BEARERS));
        assertEquals(SN_INDEX.id() + " 16, " + RADIO_PORT.id() + " 9, " + BAAS_PORT.id() + " 9, "
                             + UE_MAC.id() + " 48", params(DOWNLINK_BEARERS, SET_DOWNLINK_BEARER));
        assertEquals(KEY_TEID.id() + " EXACT 32", keys(UPLINK_BEARERS));
        assertEquals(UPLINK_TEID.id() + " 32, " + GNB_ADDR.id() + " 32, " + UPF_ADDR.id() + " 32, "
                             + UPF_PORT.id() + " 9", params(UPLINK_BEARERS, SET_UPLINK_BEARER));
    }

    @Test
    public void constantsAreThoseOfTheProgram() throws IOException {
        String defines = Files.readString(Path.of("p4src", "include", "defines.p4"));
        assertTrue(defines.contains("const bit<32> GNB_BAAS_SESSION_BASE = " + BAAS_SESSION_BASE + ";"));
        assertTrue(defines.contains("#define GNB_SN_CELLS " + SN_CELLS));
        assertEquals(SN_CELLS, MODEL.register(PiRegisterId.of(SN_REGISTER)).orElseThrow().size());
    }
}
