/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.OverflowPolicy;
import org.flowbuf.api.QueueType;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onosproject.net.DeviceId;
import org.onosproject.store.service.TestStorageService;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;

/**
 * Both stores keep buffers per device and replace on put.
 */
@RunWith(Parameterized.class)
public class BufferStoreTest {

    static final DeviceId S1 = DeviceId.deviceId("device:s1");
    static final DeviceId S2 = DeviceId.deviceId("device:s2");
    static final BufferId B1 = BufferId.bufferId("b1");
    static final BufferSpec SPEC = BufferSpec.builder().capacityBytes(4096)
            .capacityPackets(10).queueType(QueueType.PRIORITY).overflow(OverflowPolicy.DROP_HEAD)
            .build();

    private final BufferStore store;

    /**
     * Runs every test on one store.
     *
     * @param name    store name, for the report
     * @param factory makes the store
     */
    public BufferStoreTest(String name, Supplier<BufferStore> factory) {
        this.store = factory.get();
    }

    /**
     * The stores under test.
     *
     * @return name and factory of each
     */
    @Parameterized.Parameters(name = "{0}")
    public static List<Object[]> stores() {
        Supplier<BufferStore> memory = InMemoryBufferStore::new;
        Supplier<BufferStore> distributed = () -> new DistributedBufferStore(new TestStorageService());
        return List.of(new Object[]{"in-memory", memory}, new Object[]{"distributed", distributed});
    }

    static Buffer buffer(DeviceId device, VportMode mode) {
        return new Buffer(device, B1, "app", SPEC, VportId.vportId("vp1"), mode, 3);
    }

    @Test
    public void buffersArePerDeviceAndPutReplaces() {
        store.put(buffer(S1, VportMode.RX));
        store.put(buffer(S2, VportMode.TX));
        store.put(buffer(S1, VportMode.RX_TX));
        assertEquals(Optional.of(buffer(S1, VportMode.RX_TX)), store.get(S1, B1));
        assertEquals(List.of(buffer(S2, VportMode.TX)), List.copyOf(store.buffers(S2)));
        store.remove(S1, B1);
        assertEquals(Optional.empty(), store.get(S1, B1));
        assertEquals(1, store.buffers(S2).size());
    }

    @Test
    public void boundToFollowsEveryPutAndRemove() {
        VportId vp1 = VportId.vportId("vp1");
        VportId vp2 = VportId.vportId("vp2");
        assertEquals(Optional.empty(), store.boundTo(S1, vp1));
        store.put(buffer(S1, VportMode.RX));
        assertEquals(Optional.of(B1), store.boundTo(S1, vp1));
        assertEquals("per device", Optional.empty(), store.boundTo(S2, vp1));
        store.put(buffer(S1, VportMode.TX)); // same vport, another mode
        assertEquals(Optional.of(B1), store.boundTo(S1, vp1));
        Buffer moved = new Buffer(S1, B1, "app", SPEC, vp2, VportMode.RX, 0);
        store.put(moved); // a binding replaced (a reconcile re-creating it elsewhere)
        assertEquals(Optional.empty(), store.boundTo(S1, vp1));
        assertEquals(Optional.of(B1), store.boundTo(S1, vp2));
        store.remove(S1, B1);
        assertEquals(Optional.empty(), store.boundTo(S1, vp2));
        store.remove(S1, B1); // removing what is gone changes nothing
        assertEquals(Optional.empty(), store.boundTo(S1, vp2));
    }
}
