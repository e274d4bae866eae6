/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.Optional;

/**
 * Fast mobility management with programmable buffers (Programmable Buffers,
 * SOSR'18): the anchor multicasts a UE's downlink to the serving eNB and the
 * likely targets; the serving eNB's buffer delivers, the others hold a
 * window of the newest packets. A handoff makes every buffer hold; on
 * attach the target's buffer drops what the source already delivered (the
 * inter-buffer sync, by IPv4 id + L4 checksum) and delivers the rest. No
 * end marker and no path switch: a handoff may start before the previous
 * one would have settled in LMM.
 */
public interface FmmService {

    /** Owner of the buffers and intents of sessions. */
    String OWNER = "org.flowbuf.apps.fmm";

    /**
     * Opens a session: one buffer per eNB (the serving one delivers), the
     * anchor's multicast group and the rule that sends the downlink to it.
     *
     * @param plan where
     * @return the session, ATTACHED
     * @throws org.flowbuf.api.FlowBufException INVALID, CONFLICT (an open
     *         session has this downlink), NOT_FOUND, UNAVAILABLE; nothing is
     *         left changed
     */
    FmmSession open(FmmPlan plan);

    /**
     * Starts a handoff: the serving eNB stops delivering and holds (the UE
     * may detach); while the UE moves, the target's buffer drops what the
     * source delivered. During a handoff, another handoff just changes the
     * target (whose buffer then drops it at the attach).
     *
     * @param id     session id
     * @param target the eNB the UE goes to (a cell of the plan)
     * @return the session, DETACHED
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, INVALID (not a
     *         cell), CONFLICT (session not open), UNAVAILABLE
     */
    FmmSession handoff(long id, DeviceId target);

    /**
     * The UE attached at the target: the target's buffer delivers what the
     * source did not (dropping the rest first if the handoff could not).
     *
     * @param id session id
     * @return the session, ATTACHED to the target
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, CONFLICT (no
     *         handoff started), UNAVAILABLE
     */
    FmmSession attach(long id);

    /**
     * Closes a session: the anchor stops multicasting, buffers and intents go.
     * The serving buffer delivers what it holds first; the other windows are
     * copies and are dropped, as is everything held when a handoff is under
     * way (no eNB delivers then).
     *
     * @param id session id
     * @return the session, CLOSED (or FAILED with what could not be removed)
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, CONFLICT (already closed)
     */
    FmmSession close(long id);

    /**
     * A session.
     *
     * @param id session id
     * @return the session, if known
     */
    Optional<FmmSession> session(long id);

    /**
     * Every session.
     *
     * @return sessions by id
     */
    Collection<FmmSession> sessions();
}
