/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.IntentId;
import org.onosproject.net.ConnectPoint;

/**
 * Where a UE's downlink lives after its last handoff: through the target's
 * new-path buffer, Forwarding, held by a pause and a resume intent. The next
 * handoff from that eNB reuses the buffer as its source buffer (one
 * set_vport_mode), so the downlink never leaves a buffer and cannot reorder.
 */
final class Resident {

    final ConnectPoint in;
    final ConnectPoint out;
    final BufferId buffer;
    final IntentId pause;
    final IntentId resume;

    Resident(ConnectPoint in, ConnectPoint out, BufferId buffer, IntentId pause,
             IntentId resume) {
        this.in = in;
        this.out = out;
        this.buffer = buffer;
        this.pause = pause;
        this.resume = resume;
    }
}
