/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.event.AbstractEvent;

/**
 * A pause or resume intent was requested or reached a new lifecycle state.
 * The subject is the intent as it is after the change.
 */
public final class IntentEvent extends AbstractEvent<IntentEvent.Type, FlowBufIntent> {

    /** What happened to the intent. */
    public enum Type {
        /** The intent was accepted and its steps are about to run. */
        INTENT_REQUESTED,
        /** Every step of the intent is done. */
        INTENT_INSTALLED,
        /** A step failed; the steps before it were undone. */
        INTENT_FAILED,
        /** The intent was withdrawn. */
        INTENT_WITHDRAWN
    }

    /**
     * Creates an event.
     *
     * @param type   what happened
     * @param intent the intent
     */
    public IntentEvent(Type type, FlowBufIntent intent) {
        super(type, intent);
    }

    /**
     * The event type that announces an intent in a given lifecycle state.
     *
     * @param state lifecycle state
     * @return event type
     */
    public static Type typeOf(FlowBufIntent.State state) {
        switch (state) {
            case REQUESTED:
                return Type.INTENT_REQUESTED;
            case INSTALLED:
                return Type.INTENT_INSTALLED;
            case FAILED:
                return Type.INTENT_FAILED;
            case WITHDRAWN:
                return Type.INTENT_WITHDRAWN;
            default:
                throw new IllegalArgumentException("unknown intent state " + state);
        }
    }
}
