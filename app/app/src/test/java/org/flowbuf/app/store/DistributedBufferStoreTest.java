/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.VportMode;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * What the cluster stores is what other instances read back: the test map
 * does not serialize, so the serializer is checked on its own.
 */
public class DistributedBufferStoreTest {

    @Test
    public void serializerRoundTripsABufferAndItsKey() {
        Buffer buffer = BufferStoreTest.buffer(BufferStoreTest.S1, VportMode.RX_TX);
        byte[] bytes = DistributedBufferStore.SERIALIZER.encode(buffer);
        assertEquals(buffer, DistributedBufferStore.SERIALIZER.decode(bytes));
        DistributedBufferStore.Key key = new DistributedBufferStore.Key(buffer.deviceId(),
                                                                        buffer.id());
        assertEquals(key, DistributedBufferStore.SERIALIZER.decode(
                DistributedBufferStore.SERIALIZER.encode(key)));
        DistributedBufferStore.VportKey vportKey = new DistributedBufferStore.VportKey(
                buffer.deviceId(), buffer.vport());
        assertEquals(vportKey, DistributedBufferStore.SERIALIZER.decode(
                DistributedBufferStore.SERIALIZER.encode(vportKey)));
    }
}
