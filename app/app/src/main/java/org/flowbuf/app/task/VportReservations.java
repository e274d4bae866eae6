/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import org.flowbuf.api.VportId;
import org.flowbuf.app.southbound.VportSlot;
import org.flowbuf.app.store.BufferStore;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vports that creates in flight have taken: a vport is reserved before
 * its create calls the agent and released once the store binds a buffer to
 * it (or the create failed), so at every moment a vport in use is either
 * reserved or bound in the store, and two creates never get the same one.
 * No lock: a reservation is one atomic add to a concurrent set.
 *
 * <p>A removal tells the agent before it takes the buffer out of the store,
 * so a vport the store no longer binds is free at the agent too; one it
 * still binds is skipped (at worst a create racing the removal of the last
 * bound vport is refused as if it came first). Each slot costs one or two
 * lookups in the store's vport index ({@link BufferStore#boundTo}), so a
 * create costs at most a few lookups per slot of the device.
 */
final class VportReservations {

    private final BufferStore store;
    private final Set<List<Object>> reserved = ConcurrentHashMap.newKeySet();

    VportReservations(BufferStore store) {
        this.store = store;
    }

    /**
     * Reserves the first of the slots that no other create holds and no
     * buffer is bound to.
     *
     * @param deviceId device
     * @param slots    its vport slots, in the order to try them
     * @return the reserved slot, if one was free
     */
    Optional<VportSlot> reserveUnbound(DeviceId deviceId, List<VportSlot> slots) {
        for (VportSlot slot : slots) {
            VportId vport = slot.id();
            if (bound(deviceId, vport)) {
                continue; // most tried slots are bound: skipped without a reservation
            }
            // Reserve, then look at the store again: a create that had the
            // vport put its buffer in the store before it released it.
            if (reserve(deviceId, vport)) {
                if (!bound(deviceId, vport)) {
                    return Optional.of(slot);
                }
                release(deviceId, vport);
            }
        }
        return Optional.empty();
    }

    /**
     * Reserves one vport.
     *
     * @param deviceId device
     * @param vport    vport
     * @return whether it was free to reserve
     */
    boolean reserve(DeviceId deviceId, VportId vport) {
        return reserved.add(List.of(deviceId, vport));
    }

    /**
     * Releases a reservation.
     *
     * @param deviceId device
     * @param vport    vport
     */
    void release(DeviceId deviceId, VportId vport) {
        reserved.remove(List.of(deviceId, vport));
    }

    // One lookup in the store's index of bound vports, never a listing of
    // the device's buffers: a create tries up to every slot of the device.
    private boolean bound(DeviceId deviceId, VportId vport) {
        return store.boundTo(deviceId, vport).isPresent();
    }
}
