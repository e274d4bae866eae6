/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onlab.util.Identifier;

/** Identifier of a buffer, chosen by the controller, unique on its agent. */
public final class BufferId extends Identifier<String> {

    private BufferId(String id) {
        super(id);
    }

    /**
     * Returns the id for a string, checked against the southbound id rules.
     *
     * @param id the id, [A-Za-z0-9._:-]{1,64}
     * @return the buffer id
     * @throws FlowBufException INVALID if the string is not a valid id
     */
    public static BufferId bufferId(String id) {
        return new BufferId(ObjectIds.check(id, "buffer"));
    }
}
