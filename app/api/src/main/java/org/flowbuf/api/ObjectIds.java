/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import java.util.regex.Pattern;

/** The id rules of the southbound API, shared by buffer and vport ids. */
final class ObjectIds {

    /** What the southbound API accepts as a buffer or vport id. */
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private ObjectIds() {
    }

    static String check(String id, String kind) {
        if (id == null || !VALID.matcher(id).matches()) {
            throw FlowBufException.invalid("%s id must match [A-Za-z0-9._:-]{1,64}, got %s",
                                           kind, id == null ? "nothing" : "'" + id + "'");
        }
        return id;
    }
}
