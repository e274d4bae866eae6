/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onlab.util.Identifier;

/** Identifier of a vport, chosen by the controller, unique on its agent. */
public final class VportId extends Identifier<String> {

    private VportId(String id) {
        super(id);
    }

    /**
     * Returns the id for a string, checked against the southbound id rules.
     *
     * @param id the id, [A-Za-z0-9._:-]{1,64}
     * @return the vport id
     * @throws FlowBufException INVALID if the string is not a valid id
     */
    public static VportId vportId(String id) {
        return new VportId(ObjectIds.check(id, "vport"));
    }
}
