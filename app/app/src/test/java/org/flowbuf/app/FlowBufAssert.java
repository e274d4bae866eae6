/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app;

import org.flowbuf.api.FlowBufException;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/** Assertions the FlowBuf tests share. */
public final class FlowBufAssert {

    private FlowBufAssert() {
    }

    /**
     * Asserts that a call is refused with a reason.
     *
     * @param call   the call
     * @param reason the reason it must be refused with
     */
    public static void assertReason(Runnable call, FlowBufException.Reason reason) {
        try {
            call.run();
            fail("expected " + reason);
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), reason, e.reason());
        }
    }

    /**
     * Asserts that a call throws IllegalArgumentException.
     *
     * @param call the call
     * @return the exception, for its message
     */
    public static IllegalArgumentException assertIllegal(Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            return e;
        }
        throw new AssertionError("expected IllegalArgumentException");
    }
}
