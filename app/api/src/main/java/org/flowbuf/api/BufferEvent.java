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
        super(type, buffer);
    }
}
