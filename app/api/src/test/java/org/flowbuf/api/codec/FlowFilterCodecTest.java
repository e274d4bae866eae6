/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.PortNumber;

import java.io.IOException;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** JSON of a flow filter: a filter that matches everything must say so. */
public class FlowFilterCodecTest {

    private final MapperOnlyContext context = new MapperOnlyContext();
    private final FlowFilterCodec codec = new FlowFilterCodec();

    private FlowFilter decode(String json) throws IOException {
        return codec.decode((ObjectNode) context.mapper().readTree(json), context);
    }

    private void assertRefused(String json, String messagePart) throws IOException {
        try {
            FlowFilter f = decode(json);
            fail(json + " decoded as " + f);
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage() + " should mention " + messagePart,
                       e.getMessage().contains(messagePart));
        }
    }

    @Test
    public void aFilterThatNamesNoIpv4FieldIsRefusedUnlessItSaysAll() throws IOException {
        assertRefused("{}", "would match every IPv4 packet");
        assertRefused("{}", "\"all\": true");
        assertRefused("{\"inPort\": 1}", "would match every IPv4 packet");
        assertRefused("{\"all\": false}", "would match every IPv4 packet");
        assertRefused("{\"all\": \"yes\"}", "\"all\" must be true or false");
        assertRefused("{\"all\": 1}", "\"all\" must be true or false");
        FlowFilter all = decode("{\"all\": true}");
        assertTrue(all.matchesEveryIpv4Packet());
        assertEquals(FlowFilter.builder().build(), all);
        assertEquals(FlowFilter.builder().inPort(PortNumber.portNumber(1)).build(),
                     decode("{\"all\": true, \"inPort\": 1}"));
    }

    @Test
    public void allTogetherWithAnIpv4FieldIsRefused() throws IOException {
        assertRefused("{\"all\": true, \"ipProto\": 17}", "\"all\" is only for a filter");
        // "all": false next to real fields says nothing more.
        assertEquals(FlowFilter.builder().ipProto(17).build(),
                     decode("{\"all\": false, \"ipProto\": 17}"));
    }

    @Test
    public void aMisspeltFieldIsRefusedRatherThanIgnored() throws IOException {
        // Ignored, the typo would leave a filter that matches everything.
        assertRefused("{\"ipv4src\": \"10.0.0.1/32\"}", "unknown field \"ipv4src\"");
        assertRefused("{\"ipv4Src\": \"10.0.0.1/32\", \"port\": 80}", "unknown field \"port\"");
    }

    @Test
    public void numbersBeyondTheirFieldAreRefusedNotWrapped() throws IOException {
        // 2^32 + 17 would be 17 (UDP) once cut to an int.
        assertRefused("{\"ipProto\": 4294967313}", "ipProto must be between 0 and 255");
        assertRefused("{\"ipProto\": 17, \"l4DstPort\": 4295032832}",
                      "l4DstPort must be between 0 and 65535");
        assertRefused("{\"ipProto\": 17, \"l4SrcPort\": 65536}",
                      "l4SrcPort must be between 0 and 65535");
        assertRefused("{\"ipProto\": -1}", "must be a non-negative integer");
        assertRefused("{\"ipProto\": 1.5}", "must be a non-negative integer");
    }

    @Test
    public void anInPortBeyondThePhysicalPortsIsRefused() throws IOException {
        // 2^32 is ONOS's first logical port; stored, it would encode as no in-port.
        assertRefused("{\"inPort\": 4294967296, \"ipProto\": 17}",
                      "inPort must be a physical port number between 1 and 4294967295");
        assertRefused("{\"inPort\": 0, \"ipProto\": 17}", "got 0");
        assertEquals(PortNumber.portNumber(4294967295L),
                     decode("{\"inPort\": 4294967295, \"ipProto\": 17}").inPort().orElseThrow());
    }

    @Test
    public void anAllFilterEncodesAsAllAndDecodesBack() throws IOException {
        ObjectNode json = codec.encode(FlowFilter.builder().inPort(PortNumber.portNumber(2))
                                               .build(), context);
        assertEquals("{\"inPort\":2,\"all\":true}", json.toString());
        assertEquals(FlowFilter.builder().inPort(PortNumber.portNumber(2)).build(),
                     codec.decode(json, context));
        FlowFilter narrow = FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.1/32"))
                .ipProto(17).l4DstPort(9).build();
        ObjectNode narrowJson = codec.encode(narrow, context);
        assertFalse(narrowJson.toString(), narrowJson.has("all"));
        assertEquals(narrow, codec.decode(narrowJson, context));
    }
}
