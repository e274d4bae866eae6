/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of the hybrid UPF's placement hook (include/hybrid.p4) in the
 * p4info: the slow path a fast-path switch sends its session misses to,
 * and the end marker it punts when it comes back.
 */
public final class HybridP4Names {

    /** Keyless; its default action TO_SLOW_PATH makes the switch a fast path. */
    public static final PiTableId SLOW_PATH = PiTableId.of("IngressPipeImpl.hybrid.slow_path");
    /** Downlink session misses leave by PORT. */
    public static final PiActionId TO_SLOW_PATH = PiActionId.of("IngressPipeImpl.hybrid.to_slow_path");
    /** The port to the slow path. */
    public static final PiActionParamId PORT = PiActionParamId.of("port");
    /** The default: no slow path (a miss is dropped). */
    public static final PiActionId NO_ACTION = PiActionId.of("NoAction");
    /** The end marker's UDP destination port (HYBRID_MARKER_PORT in hybrid.p4). */
    public static final int MARKER_PORT = 0xFB0E;

    private HybridP4Names() {
    }
}
