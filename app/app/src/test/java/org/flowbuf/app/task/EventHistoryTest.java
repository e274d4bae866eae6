/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.List;

import static org.junit.Assert.assertEquals;

/**
 * Removed buffers' events are kept only for the latest removed buffers.
 */
public class EventHistoryTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private final EventHistory history = new EventHistory(1);

    private void record(BufferEvent.Type type, String id) {
        history.record(new BufferEvent(type, new Buffer(S1, BufferId.bufferId(id), "app",
                                                        BufferSpec.defaults(),
                                                        VportId.vportId("vp100"),
                                                        VportMode.RX, 0)));
    }

    private int eventsOf(String id) {
        return history.of(S1, BufferId.bufferId(id)).size();
    }

    @Test
    public void theOldestRemovedBufferIsForgottenButNotALiveOneOfTheSameId() {
        record(BufferEvent.Type.BUFFER_ADDED, "a");
        record(BufferEvent.Type.BUFFER_REMOVED, "a");
        record(BufferEvent.Type.BUFFER_ADDED, "b");
        assertEquals(2, eventsOf("a"));
        record(BufferEvent.Type.BUFFER_REMOVED, "b");
        assertEquals(List.of(), history.of(S1, BufferId.bufferId("a")));
        assertEquals(2, eventsOf("b"));
        // b is created again before its old history is forgotten: the new one stays.
        record(BufferEvent.Type.BUFFER_ADDED, "b");
        record(BufferEvent.Type.BUFFER_ADDED, "c");
        record(BufferEvent.Type.BUFFER_REMOVED, "c");
        assertEquals(1, eventsOf("b"));
        assertEquals(2, eventsOf("c"));
    }
}
