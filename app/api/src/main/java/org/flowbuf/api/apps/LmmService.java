/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import java.util.Collection;
import java.util.Optional;

/**
 * LTE mobility management with programmable buffers (Programmable Buffers,
 * SOSR'18): a handoff loses no downlink packet and reorders none. At the
 * start a buffer at the source eNB and two at the target (one for what the
 * source forwards, one for the new path) hold the UE's downlink and the
 * anchor switches the path; on re-attach the first target buffer delivers;
 * an end marker injected on the old path closes it, and once every eNB
 * buffer reported the marker the second target buffer delivers.
 */
public interface LmmService {

    /** Owner of the buffers and intents of handoffs. */
    String OWNER = "org.flowbuf.apps.lmm";

    /**
     * Starts a handoff: buffers set, anchor path switched; the UE may detach.
     *
     * @param plan where
     * @return the handoff, DETACHED
     * @throws org.flowbuf.api.FlowBufException INVALID, CONFLICT (a handoff of
     *         this downlink is under way), NOT_FOUND, UNAVAILABLE; nothing is
     *         left changed
     */
    LmmHandoff start(HandoffPlan plan);

    /**
     * The UE re-attached at the target: forwarded packets flow to it and the
     * end marker is sent down the old path.
     *
     * @param id handoff id
     * @return the handoff, ATTACHED (it completes when the marker is seen)
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, CONFLICT (not DETACHED)
     */
    LmmHandoff attach(long id);

    /**
     * A handoff.
     *
     * @param id handoff id
     * @return the handoff, if known
     */
    Optional<LmmHandoff> handoff(long id);

    /**
     * Every handoff.
     *
     * @return handoffs
     */
    Collection<LmmHandoff> handoffs();
}
