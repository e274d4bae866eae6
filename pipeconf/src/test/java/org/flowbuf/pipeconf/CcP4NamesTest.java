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

import static org.flowbuf.pipeconf.CcP4Names.*;
import static org.flowbuf.pipeconf.P4Model.MODEL;
import static org.flowbuf.pipeconf.P4Model.keys;
import static org.flowbuf.pipeconf.P4Model.params;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The congestion-avoidance names a controller writes are those of the
 * committed p4info, with the keys and parameters it expects; the constants
 * are those of defines.p4.
 */
public class CcP4NamesTest {

    @Test
    public void tablesHaveTheKeysAndParametersTheControllerWrites() {
        assertEquals("ipv4_src TERNARY 32, ipv4_dst TERNARY 32, ip_proto TERNARY 8, "
                             + "l4_src_port TERNARY 16, l4_dst_port TERNARY 16", keys(FLOWS));
        assertEquals(FLOW.id() + " 16, " + GENERATION.id() + " 32", params(FLOWS, TRACK));
        String flowSlot = KEY_FLOW.id() + " EXACT 16, " + KEY_SLOT.id() + " EXACT 1";
        assertEquals(flowSlot, keys(PATHS));
        assertEquals(flowSlot, keys(ALTERNATES));
        assertEquals(PORT.id() + " 9, " + DMAC.id() + " 48", params(PATHS, FORWARD));
        assertEquals("", params(ALTERNATES, ALTERNATE));
        assertEquals("", keys(SWITCH));
        assertEquals(ID.id() + " 16, " + REPORT.id() + " 1", params(SWITCH, SET_SWITCH_ID));
        assertEquals(KEY_FLOW.id() + " EXACT 16", keys(THRESHOLDS));
        assertEquals(QUEUE_US.id() + " 32, " + PROC_US.id() + " 32, " + M.id() + " 32",
                     params(THRESHOLDS, LIMITS));
        assertEquals(KEY_FLOW.id() + " EXACT 16", keys(ORDERED));
        assertEquals("", params(ORDERED, CHECK_OUT_PORT));
        assertEquals(KEY_FLOW.id() + " EXACT 16", keys(MARKER_SINKS));
        assertEquals(PORT.id() + " 9, " + TAG.id() + " 32", params(MARKER_SINKS, TO_SINK));
    }

    @Test
    public void aFlowsGenerationHasOneCellPerFlow() {
        assertEquals(FLOW_CELLS,
                     MODEL.register(PiRegisterId.of("cc_generation")).orElseThrow().size());
    }

    @Test
    public void aReportIsTheHeaderThatTheProgramTruncatesTo() throws IOException {
        String program = Files.readString(Path.of("p4src", "include", "congestion.p4"));
        assertTrue(program.contains("truncate(PACKET_IN_HDR_BYTES + ETH_HDR_BYTES + "
                                            + REPORT_BYTES + ");"));
    }

    @Test
    public void constantsAreThoseOfDefines() throws IOException {
        String defines = Files.readString(Path.of("p4src", "include", "defines.p4"));
        assertTrue(defines.contains("#define CC_FLOWS " + FLOW_CELLS));
        assertTrue(defines.contains("CC_NOTIFY_SESSION_BASE = " + NOTIFY_SESSION_BASE + ";"));
        assertTrue(defines.contains("ETHERTYPE_CC_NOTIFY = 0x" + Integer.toHexString(ETHERTYPE_NOTIFY)
                                            + ";"));
        assertTrue(defines.contains("CC_MARKER_SESSION_BASE = " + MARKER_SESSION_BASE + ";"));
        assertTrue(defines.contains("ETHERTYPE_CC_MARKER = 0x" + Integer.toHexString(ETHERTYPE_MARKER)
                                            + ";"));
    }
}
