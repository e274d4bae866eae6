/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Intent-level Buffer Service (Programmable Buffers' pause_flow and
 * resume_flow): a paused-then-resumed flow loses no packet and reorders none.
 */
public interface FlowBufIntentService {

    /**
     * Pauses a flow: packets matching the filter that arrive on inPort are
     * steered into a buffer and held.
     *
     * @param deviceId device
     * @param inPort   port the flow arrives on
     * @param filter   the flow (its own in-port, if any, must equal inPort)
     * @param bufferId buffer to use; empty to reuse the buffer this flow
     *                 already goes through, or else allocate one
     * @param owner    requesting application
     * @return the installed intent
     * @throws FlowBufException with the reason of the step that failed; all
     *                          earlier steps were rolled back
     */
    FlowBufIntent pause(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                        Optional<BufferId> bufferId, String owner);

    /**
     * Resumes a flow: the buffer replays what it holds, in order, towards
     * outPort, and the flow then passes through it in order.
     *
     * @param deviceId device
     * @param outPort  port the flow leaves on (may differ from its old one)
     * @param filter   which replayed packets go to outPort (may differ from
     *                 the pause filter)
     * @param bufferId buffer to release; empty for the buffer that the paused
     *                 flow with this filter goes through
     * @param owner    requesting application
     * @return the installed intent
     * @throws FlowBufException with the reason of the step that failed
     */
    FlowBufIntent resume(DeviceId deviceId, PortNumber outPort, FlowFilter filter,
                         Optional<BufferId> bufferId, String owner);

    /**
     * Pauses many flows into one buffer at once: the buffer is made to
     * receive once and every pause rule goes to the switch in one write.
     * All or nothing.
     *
     * @param deviceId device
     * @param flows    the flows, each with the in-port it arrives on (1 to
     *                 1,024, no flow twice)
     * @param bufferId buffer that holds them
     * @param owner    requesting application
     * @return one installed intent per flow, in order
     * @throws FlowBufException with the reason of the step that failed;
     *                          nothing of the batch stays installed
     */
    List<FlowBufIntent> pauseAll(DeviceId deviceId, List<FlowFilter> flows, BufferId bufferId,
                                 String owner);

    /**
     * Resumes many flows from one buffer at once: every replay rule goes to
     * the switch in one write, then the buffer transmits. All or nothing.
     *
     * @param deviceId device
     * @param outPort  port the flows leave on
     * @param flows    which replayed packets go to outPort (1 to 1,024)
     * @param bufferId buffer to release
     * @param owner    requesting application
     * @return one installed intent per flow, in order
     * @throws FlowBufException with the reason of the step that failed;
     *                          nothing of the batch stays installed
     */
    List<FlowBufIntent> resumeAll(DeviceId deviceId, PortNumber outPort, List<FlowFilter> flows,
                                  BufferId bufferId, String owner);

    /**
     * All intents, installed or not.
     *
     * @return intents
     */
    Collection<FlowBufIntent> getIntents();

    /**
     * One intent.
     *
     * @param id intent id
     * @return the intent, if known
     */
    Optional<FlowBufIntent> getIntent(IntentId id);

    /**
     * Withdraws an installed intent and removes its rules.
     *
     * @param id    intent id
     * @param owner requesting application (must own the intent)
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, CONFLICT (a pause whose
     *                          buffer still holds packets)
     */
    void withdraw(IntentId id, String owner);
}
