/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;

/**
 * The agent directory on a config source that makes a new config object per
 * lookup, as ONOS's getConfig does: its judgement follows the JSON's
 * content (kept while it is the same, made again when it changes).
 */
public class ConfiguredAgentDirectoryTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String VALID = "{\"agentAddress\": \"127.0.0.1:50051\", \"readyBuffers\": 2,"
            + " \"vports\": [{\"id\": \"vp1\", \"switchPort\": 101}, {\"id\": \"vp2\", \"switchPort\": 102}]}";
    private static final String BAD_VPORT = "{\"agentAddress\": \"127.0.0.1:50051\", \"readyBuffers\": 2,"
            + " \"vports\": [{\"id\": \"vp 1\", \"switchPort\": 101}]}";

    private final AtomicReference<String> json = new AtomicReference<>(VALID);
    private final ConfiguredAgentDirectory agents = new ConfiguredAgentDirectory(
            "test", id -> Optional.of(freshConfig(json.get())), () -> Set.of(S1),
            new ChannelFactory() {
                @Override
                public ManagedChannel open(DeviceId deviceId, FlowBufDeviceConfig config) {
                    throw new AssertionError("no channel in this test");
                }

                @Override
                public void close(DeviceId deviceId, ManagedChannel channel) {
                }
            }, id -> true, Duration.ofSeconds(1));

    // A new config object from the JSON, as ONOS's getConfig makes per call.
    private static FlowBufDeviceConfig freshConfig(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            FlowBufDeviceConfig config = new FlowBufDeviceConfig();
            config.init(S1, FlowBufDeviceConfig.CONFIG_KEY, node, MAPPER, c -> { });
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    public void judgementFollowsTheJsonContentNotTheConfigObject() {
        for (int i = 0; i < 3; i++) {
            assertEquals(2, agents.vportSlots(S1).size());
            assertEquals(2, agents.readyBuffers(S1));
        }
        json.set(BAD_VPORT);
        assertEquals("an invalid config gives no slots", List.of(), agents.vportSlots(S1));
        assertEquals(0, agents.readyBuffers(S1));
        assertReason(() -> agents.agent(S1), FlowBufException.Reason.INVALID);
        json.set(VALID);
        assertEquals("valid again", 2, agents.vportSlots(S1).size());
    }
}
