/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.app.southbound.OneDeviceAgents;
import org.flowbuf.app.southbound.StatefulAgent;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.BufferStore;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Vport reservations: a create gets the first slot that is neither bound
 * nor reserved, and finds it without listing the device's buffers (a listing
 * per slot tried made 10,000 creates take minutes).
 */
public class VportReservationsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    /** Thousands, as a device with tagged vports has. */
    private static final int MANY = 5000;
    /** Generous for a loaded 2-core machine; a listing per slot needs minutes. */
    private static final long MANY_CREATES_MAX_MS = 60_000;

    private final CountingStore store = new CountingStore();

    @Test
    public void thousandsOfCreatesListNoBuffersAndGiveEachVportOnce() {
        BufferManager buffers = new BufferManager(
                new OneDeviceAgents(S1, new StatefulAgent(0, 0), slotsOf(MANY)), store);
        Set<VportId> given = new HashSet<>();
        long start = System.nanoTime();
        for (int i = 0; i < MANY; i++) {
            Buffer b = buffers.createBuffer(S1, BufferId.bufferId("b" + i), "app",
                                            BufferSpec.defaults(), BufferState.BUFFERING);
            assertTrue("vport given twice: " + b.vport(), given.add(b.vport()));
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals("a create lists no buffers", 0, store.listings.get());
        assertTrue(MANY + " creates took " + ms + " ms", ms < MANY_CREATES_MAX_MS);
        assertEquals(MANY, given.size());
        assertReason(() -> buffers.createBuffer(S1, BufferId.bufferId("one-more"), "app",
                                                BufferSpec.defaults(), BufferState.BUFFERING),
                     FlowBufException.Reason.EXHAUSTED);
        // A vport freed in the middle is the first free one again.
        buffers.removeBuffer(S1, BufferId.bufferId("b1234"), "app", true);
        assertEquals(VportId.vportId("vp1234"), buffers.createBuffer(
                S1, BufferId.bufferId("again"), "app", BufferSpec.defaults(),
                BufferState.FORWARDING).vport());
    }

    @Test
    public void aReservedOrBoundSlotIsNotGivenUntilReleasedOrRemoved() {
        VportReservations vports = new VportReservations(store);
        List<VportSlot> slots = slotsOf(3);
        VportSlot first = vports.reserveUnbound(S1, slots).orElseThrow();
        assertEquals(VportId.vportId("vp0"), first.id());
        store.put(new Buffer(S1, BufferId.bufferId("on-vp1"), "app", BufferSpec.defaults(),
                             VportId.vportId("vp1"), VportMode.RX, 0));
        assertEquals("vp0 reserved, vp1 bound", Optional.of(VportId.vportId("vp2")),
                     vports.reserveUnbound(S1, slots).map(VportSlot::id));
        assertEquals("all taken", Optional.empty(), vports.reserveUnbound(S1, slots));
        vports.release(S1, VportId.vportId("vp0"));
        assertEquals(Optional.of(VportId.vportId("vp0")),
                     vports.reserveUnbound(S1, slots).map(VportSlot::id));
        store.remove(S1, BufferId.bufferId("on-vp1"));
        assertEquals(Optional.of(VportId.vportId("vp1")),
                     vports.reserveUnbound(S1, slots).map(VportSlot::id));
    }

    private static List<VportSlot> slotsOf(int n) {
        List<VportSlot> slots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            slots.add(new VportSlot(VportId.vportId("vp" + i), 100, null, 0, i + 1));
        }
        return slots;
    }

    /** The in-memory store, counting how often a device's buffers are listed. */
    private static final class CountingStore implements BufferStore {
        private final InMemoryBufferStore store = new InMemoryBufferStore();
        private final AtomicLong listings = new AtomicLong();

        @Override
        public void put(Buffer buffer) {
            store.put(buffer);
        }

        @Override
        public Optional<Buffer> get(DeviceId deviceId, BufferId id) {
            return store.get(deviceId, id);
        }

        @Override
        public void remove(DeviceId deviceId, BufferId id) {
            store.remove(deviceId, id);
        }

        @Override
        public Optional<BufferId> boundTo(DeviceId deviceId, VportId vport) {
            return store.boundTo(deviceId, vport);
        }

        @Override
        public Collection<Buffer> buffers(DeviceId deviceId) {
            listings.incrementAndGet();
            return store.buffers(deviceId);
        }
    }
}
