/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;
import org.onosproject.net.pi.model.PiMatchType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.flowbuf.pipeconf.FbP4Names.*;
import static org.flowbuf.pipeconf.P4Model.MODEL;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The FB names a controller writes are those of the committed p4info, with
 * the keys, match kinds, parameters and sizes it expects.
 */
public class FbP4NamesTest {

    @Test
    public void tablesHaveTheKeysAndParametersTheControllerWrites() {
        assertEquals(String.join(", ", KEY_EGRESS_PORT.id() + " " + PiMatchType.EXACT + " 9",
                                 KEY_PRIORITY.id() + " " + PiMatchType.TERNARY + " 3",
                                 KEY_DSCP.id() + " " + PiMatchType.TERNARY + " 6"),
                     keys(CLASSES));
        assertEquals(String.join(", ", QUEUE.id() + " 3", ALPHA_ID.id() + " 8", HIGH.id() + " 1"),
                     params(CLASSES, FB_CLASS));
        assertEquals("", keys(BUFFER));
        assertEquals(PACKETS.id() + " 32", params(BUFFER, SET_BUFFER));
        assertEquals(String.join(", ", KEY_ALPHA_ID.id() + " " + PiMatchType.EXACT + " 8",
                                 KEY_CONGESTED.id() + " " + PiMatchType.RANGE + " 32",
                                 KEY_ACTIVE.id() + " " + PiMatchType.RANGE + " 32"),
                     keys(SHIFT));
        assertEquals(LEFT.id() + " 8, " + RIGHT.id() + " 8", params(SHIFT, SET_SHIFT));
    }

    @Test
    public void countersAndRegistersHaveTheirCells() throws IOException {
        assertEquals(QUEUE_CELLS, MODEL.counter(DROPS).orElseThrow().size());
        for (var id : List.of(QLEN)) {
            assertEquals(QUEUE_CELLS, MODEL.register(id).orElseThrow().size());
        }
        assertEquals(1, MODEL.register(OCCUPIED).orElseThrow().size());
        assertEquals(2, MODEL.register(CONGESTED).orElseThrow().size());
        assertEquals(PORT_CELLS, MODEL.register(ACTIVE).orElseThrow().size());
        String defines = Files.readString(Path.of("p4src", "include", "defines.p4"));
        assertTrue(defines.contains("#define FB_QUEUE_CELLS " + QUEUE_CELLS));
        assertTrue(defines.contains("#define FB_PORT_CELLS " + PORT_CELLS));
    }
}
