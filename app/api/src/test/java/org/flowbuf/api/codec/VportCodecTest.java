/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

/** JSON of a vport: a logical vport shows its tag, an ordinary one does not. */
public class VportCodecTest {

    private final MapperOnlyContext context = new MapperOnlyContext();

    @Test
    public void aLogicalVportShowsItsTag() {
        ObjectNode json = new VportCodec().encode(
                new Vport(VportId.vportId("vp100.7"), 100, 7, BufferId.bufferId("b"), VportMode.RX),
                context);
        assertEquals(7, json.get("tag").asLong());
        assertEquals(100, json.get("switchPort").asLong());
        assertEquals("b", json.get("buffer").asText());
    }

    @Test
    public void aVportWithItsPortAloneHasNoTag() {
        ObjectNode json = new VportCodec().encode(
                new Vport(VportId.vportId("vp100"), 100, null, VportMode.NONE), context);
        assertFalse(json.has("tag"));
    }
}
