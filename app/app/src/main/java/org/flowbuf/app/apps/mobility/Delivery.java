/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import java.util.Optional;

/**
 * What an FMM attach found: the packets the target's sync purged (empty:
 * the target did not hold the sync point, and released its whole window),
 * whether the target's agent had released on the UE's signal, and whether
 * the source's agent had held on it.
 */
final class Delivery {

    final Optional<Long> purged;
    final boolean releasedOnSignal;
    final boolean heldOnSignal;

    Delivery(Optional<Long> purged, boolean releasedOnSignal, boolean heldOnSignal) {
        this.purged = purged;
        this.releasedOnSignal = releasedOnSignal;
        this.heldOnSignal = heldOnSignal;
    }
}
