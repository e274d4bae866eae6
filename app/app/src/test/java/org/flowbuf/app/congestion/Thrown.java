/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

/**
 * JUnit 4.12 has no assertThrows.
 */
final class Thrown {

    /** Something to run that should throw. */
    interface Call {
        void run() throws Exception;
    }

    private Thrown() {
    }

    static <T extends Throwable> T assertThrows(Class<T> type, Call call) {
        try {
            call.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + type.getSimpleName() + ", nothing thrown");
    }
}
