/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.event.AbstractEvent;

/**
 * A buffer was created, changed state or was removed. The subject is the
 * buffer as it is after the change (as it was before, for BUFFER_REMOVED).
 */
public final class BufferEvent extends AbstractEvent<BufferEvent.Type, Buffer> {

    /** What happened to the buffer. */
    public enum Type {
        /** The buffer was created on its device. */
        BUFFER_ADDED,
        /** The buffer's vport mode changed, and with it its derived state. */
        BUFFER_STATE_CHANGED,
        /** The buffer was removed from its device. */
        BUFFER_REMOVED,
        /**
         * The service found the buffer on the device's agent and took it
         * over (the controller restarted; what it holds is kept).
         */
        BUFFER_ADOPTED,
        /**
         * The buffer was missing from the device's agent (the agent
         * restarted; what it held is gone) and was created again.
         */
        BUFFER_RECREATED,
        /**
         * The device's agent restarted after a crash and found the buffer
         * in its state directory: it holds again, in their order, the
         * packets it held before ({@link #reattachedPackets()}); the
         * packets that reached it while it was down could not be held and
         * are lost ({@link #lostPackets()}).
         */
        BUFFER_REATTACHED,
        /**
         * A ready buffer, made ahead by the service, was handed to the
         * application that now owns it.
         */
        BUFFER_ASSIGNED
    }

    /**
     * Creates an event.
     *
     * @param type   what happened
     * @param buffer the buffer
     */
    public BufferEvent(Type type, Buffer buffer) {
        this(type, buffer, 0, 0);
    }

    /**
     * Creates an event that counts packets (BUFFER_REATTACHED).
     *
     * @param type              what happened
     * @param buffer            the buffer
     * @param reattachedPackets packets held before the agent's crash and
     *                          held again
     * @param lostPackets       packets that reached the buffer's vports
     *                          while its agent was down (not held)
     */
    public BufferEvent(Type type, Buffer buffer, long reattachedPackets, long lostPackets) {
        super(type, buffer);
        this.reattachedPackets = reattachedPackets;
        this.lostPackets = lostPackets;
    }

    private final long reattachedPackets;
    private final long lostPackets;

    /**
     * Packets held before the agent's crash and held again after it
     * (BUFFER_REATTACHED; 0 for the other types).
     *
     * @return packets
     */
    public long reattachedPackets() {
        return reattachedPackets;
    }

    /**
     * Packets that reached the buffer's vports while its agent was down
     * and could not be held (BUFFER_REATTACHED; 0 for the other types).
     *
     * @return packets
     */
    public long lostPackets() {
        return lostPackets;
    }
}
