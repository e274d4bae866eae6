/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.flowbuf.pipeconf.HybridP4Names.*;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The placement hook's names are those of the committed p4info, its marker
 * port that of hybrid.p4.
 */
public class HybridP4NamesTest {

    @Test
    public void theSlowPathIsAKeylessTablesDefaultAction() {
        assertEquals("", keys(SLOW_PATH));
        assertEquals(PORT.id() + " 9", params(SLOW_PATH, TO_SLOW_PATH));
    }

    @Test
    public void theMarkerPortIsTheProgramsOne() throws IOException {
        String hybrid = Files.readString(Path.of("p4src", "include", "hybrid.p4"));
        assertTrue(hybrid.contains(String.format("HYBRID_MARKER_PORT = 0x%X;", MARKER_PORT)));
    }
}
