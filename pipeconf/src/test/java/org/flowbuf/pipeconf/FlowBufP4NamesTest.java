/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.Assert.assertTrue;

/**
 * The P4 names the app writes exist in the committed p4info, in the places
 * the app uses them.
 */
public class FlowBufP4NamesTest {

    private static final Path P4INFO = Paths.get("p4src", "build", "p4info.txt");

    private static String block(String p4info, String kind, String name) {
        int at = p4info.indexOf("name: \"" + name + "\"");
        assertTrue(name + " is missing from " + P4INFO, at >= 0);
        int start = p4info.lastIndexOf(kind + " {", at);
        int end = p4info.indexOf("\n}", at);
        return p4info.substring(start, end);
    }

    @Test
    public void steeringNamesMatchTheP4Info() throws IOException {
        assertTrue(P4INFO.toAbsolutePath() + " must exist", Files.exists(P4INFO));
        String p4info = new String(Files.readAllBytes(P4INFO), StandardCharsets.UTF_8);
        String table = block(p4info, "tables", FlowBufP4Names.FLOW_STEERING.id());
        for (String field : new String[]{
                FlowBufP4Names.FROM_VPORT.id(), FlowBufP4Names.INGRESS_PORT.id(),
                FlowBufP4Names.IPV4_SRC.id(), FlowBufP4Names.IPV4_DST.id(),
                FlowBufP4Names.IP_PROTO.id(), FlowBufP4Names.L4_SRC_PORT.id(),
                FlowBufP4Names.L4_DST_PORT.id()}) {
            assertTrue(field + " is not a match field of flow_steering",
                       table.contains("name: \"" + field + "\"\n    bitwidth"));
        }
        String action = block(p4info, "actions", FlowBufP4Names.STEER_TO_PORT.id());
        assertTrue("steer_to_port has no 9-bit port parameter",
                   action.contains("name: \"" + FlowBufP4Names.PORT.id() + "\"\n    bitwidth: "
                                           + FlowBufP4Names.PORT_BITS));
        String mcast = block(p4info, "actions", FlowBufP4Names.STEER_TO_MCAST_GROUP.id());
        assertTrue("steer_to_mcast_group has no 16-bit group_id parameter",
                   mcast.contains("name: \"" + FlowBufP4Names.GROUP_ID.id() + "\"\n    bitwidth: "
                                          + FlowBufP4Names.MCAST_GROUP_BITS));
        assertTrue("steer_to_mcast_group is not an action of flow_steering",
                   table.contains("id: " + actionId(mcast) + "\n"));
        assertTrue("flow_steering is not " + FlowBufP4Names.FLOW_STEERING_SIZE + " rules",
                   table.endsWith("\n  size: " + FlowBufP4Names.FLOW_STEERING_SIZE));
    }

    @Test
    public void steerToBufferMatchesTheP4Info() throws IOException {
        String p4info = new String(Files.readAllBytes(P4INFO), StandardCharsets.UTF_8);
        String table = block(p4info, "tables", FlowBufP4Names.FLOW_STEERING.id());
        String action = block(p4info, "actions", FlowBufP4Names.STEER_TO_BUFFER.id());
        assertTrue("steer_to_buffer has no 9-bit port parameter",
                   action.contains("name: \"" + FlowBufP4Names.PORT.id() + "\"\n    bitwidth: "
                                           + FlowBufP4Names.PORT_BITS));
        assertTrue("steer_to_buffer has no 32-bit tag parameter",
                   action.contains("name: \"" + FlowBufP4Names.TAG.id() + "\"\n    bitwidth: "
                                           + FlowBufP4Names.TAG_BITS));
        assertTrue("steer_to_buffer is not an action of flow_steering",
                   table.contains("id: " + actionId(action) + "\n"));
    }

    private static String actionId(String actionBlock) {
        int at = actionBlock.indexOf("id: ");
        return actionBlock.substring(at + 4, actionBlock.indexOf('\n', at));
    }

    @Test
    public void vportAndL2NamesMatchTheP4Info() throws IOException {
        String p4info = new String(Files.readAllBytes(P4INFO), StandardCharsets.UTF_8);
        assertTrue("vport_ports matches ingress_port",
                   block(p4info, "tables", FlowBufP4Names.VPORT_PORTS.id())
                           .contains("name: \"" + FlowBufP4Names.INGRESS_PORT.id() + "\""));
        block(p4info, "actions", FlowBufP4Names.MARK_FROM_VPORT.id());
        assertTrue("l2_exact matches eth_dst",
                   block(p4info, "tables", FlowBufP4Names.L2_EXACT.id())
                           .contains("name: \"" + FlowBufP4Names.ETH_DST.id() + "\""));
        assertTrue("set_egress_port has a port parameter",
                   block(p4info, "actions", FlowBufP4Names.SET_EGRESS_PORT.id())
                           .contains("name: \"" + FlowBufP4Names.PORT.id() + "\""));
    }
}
