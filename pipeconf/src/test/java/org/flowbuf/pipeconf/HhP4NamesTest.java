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

import static org.flowbuf.pipeconf.HhP4Names.*;
import static org.flowbuf.pipeconf.P4Model.MODEL;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The heavy-hitter names a controller writes and reads are those of the
 * committed p4info; the constants are those of defines.p4 and hh.p4.
 */
public class HhP4NamesTest {

    @Test
    public void theSettingsAreAKeylessTablesDefaultAction() {
        assertEquals("", keys(SETTINGS));
        assertEquals(THRESHOLD.id() + " 32, " + IDLE_US.id() + " 32", params(SETTINGS, SET_HH));
    }

    @Test
    public void theRegistersHaveOneCellPerHash() {
        assertEquals(CELLS, MODEL.register(PiRegisterId.of(OWNER_REGISTER)).orElseThrow().size());
    }

    @Test
    public void constantsAreThoseOfTheProgram() throws IOException {
        String defines = Files.readString(Path.of("p4src", "include", "defines.p4"));
        assertTrue(defines.contains("#define HH_CELLS " + CELLS));
        String hh = Files.readString(Path.of("p4src", "include", "hh.p4"));
        assertTrue(hh.contains("struct " + DIGEST + " {"));
        assertTrue(hh.contains("digest<" + DIGEST + ">"));
    }

    @Test
    public void theDigestHasTheMembersTheControllerDecodes() throws IOException {
        String p4info = Files.readString(Path.of("p4src", "build", "p4info.txt"));
        int start = p4info.indexOf("key: \"" + DIGEST + "\"");
        assertTrue("p4info has no struct " + DIGEST, start >= 0);
        String struct = p4info.substring(start, p4info.indexOf("\n  }\n", start));
        assertEquals(DIGEST_MEMBERS, struct.split("members \\{").length - 1);
    }
}
