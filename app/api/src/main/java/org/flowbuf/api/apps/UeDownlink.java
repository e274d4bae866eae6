/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;

/**
 * What the mobility applications require of a UE's downlink filter.
 */
final class UeDownlink {

    private UeDownlink() {
    }

    // No in-port (each switch gets its own), and the UE's address as a /32
    // ipv4Dst (LMM sends its end marker to it).
    static void check(FlowFilter downlink) {
        if (downlink.inPort().isPresent()) {
            throw FlowBufException.invalid("the downlink filter must not name an in-port");
        }
        if (downlink.ipv4Dst().isEmpty() || downlink.ipv4Dst().get().prefixLength() != 32) {
            throw FlowBufException.invalid("the downlink filter needs the UE's address as a /32 "
                                                   + "ipv4Dst");
        }
    }
}
