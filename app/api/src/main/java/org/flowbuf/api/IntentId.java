/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onlab.util.Identifier;

/** Identifier of a FlowBuf intent, assigned by the service. */
public final class IntentId extends Identifier<Long> {

    private IntentId(long id) {
        super(id);
    }

    /**
     * Returns the id for a number.
     *
     * @param id positive number
     * @return the id
     * @throws FlowBufException INVALID for zero or a negative number
     */
    public static IntentId intentId(long id) {
        if (id <= 0) {
            throw FlowBufException.invalid("intent id must be positive, got %d", id);
        }
        return new IntentId(id);
    }
}
