/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Client of one buffer agent (the buffer-agent beside a switch, or pbswitch
 * serving in-process buffers) under one application id.
 */
public interface BufferAgentClient extends AutoCloseable {

    /**
     * Applies operations in order, atomically: all or none. A single
     * operation is sent as its own call (one message, as in the paper's
     * Table 1); several go in one Batch.
     *
     * @param operations the changes
     * @throws org.flowbuf.api.FlowBufException with the agent's reason; nothing changed
     */
    void apply(List<AgentOperation> operations);

    /**
     * Packets a buffer holds now.
     *
     * @param id buffer id
     * @return occupancy in packets
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    long occupancyPackets(BufferId id);

    /**
     * The counters of a buffer.
     *
     * @param id buffer id
     * @return statistics
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, UNAVAILABLE
     */
    BufferStatistics statistics(BufferId id);

    /**
     * Every buffer this application has on the agent, with its bound vport.
     *
     * @return buffers
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE
     */
    List<AgentBuffer> buffers();

    /**
     * PurgeUpTo: drops what a buffer holds up to a packet id.
     *
     * @param id        buffer id
     * @param packetId  packet to purge up to
     * @param inclusive also drop that packet
     * @return packets purged, or empty when no held packet has the id
     */
    Optional<Long> purgeUpTo(BufferId id, PacketId packetId, boolean inclusive);

    /**
     * Purges a buffer up to, and including, a sync point whether or not it
     * has arrived (see BufferService#purgeToSyncPoint).
     *
     * @param id       buffer
     * @param packetId the sync point
     * @return packets purged now; empty when the agent neither found nor awaits it
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, UNAVAILABLE
     */
    Optional<Long> purgeToSyncPoint(BufferId id, PacketId packetId);

    /**
     * Watches a buffer for marker packets; returns once the watch is live.
     *
     * @param id      buffer
     * @param pattern marker
     * @param onSeen  called on a transport thread per marker seen
     * @return the watch
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, UNAVAILABLE
     */
    MarkerWatch watchMarker(BufferId id, MarkerPattern pattern, Runnable onSeen);

    /**
     * ArmTrigger: the next packet that enters {@code trigger} sets these
     * vport modes, in order, on the agent, after purging
     * {@code purgeToReport} to the packet's receive report when given;
     * arming again replaces them, and no modes disarms.
     *
     * @param trigger       buffer whose next packet fires
     * @param modes         vport modes to set then, in order (empty: disarm)
     * @param purgeToReport buffer to purge to the report first (needs modes)
     * @return whether a trigger was armed before the call (false after a
     *         disarm: it had fired, or none was armed), and its newest fire
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND, FORBIDDEN, INVALID, UNAVAILABLE
     */
    TriggerReply armTrigger(BufferId trigger, Map<VportId, VportMode> modes,
                            Optional<BufferId> purgeToReport);

    /**
     * Confirms that the agent answers, before a change whose own steps may
     * not call it (a pause into a buffer that already receives, or into a
     * ready buffer): free while the channel is connected, one call
     * otherwise.
     *
     * @throws org.flowbuf.api.FlowBufException UNAVAILABLE, naming the agent, when it does not answer
     */
    void checkReachable();

    /**
     * Ends the channel's wait before its next connection attempt (gRPC's
     * reconnect backoff after a failed attempt, up to two minutes), so that
     * the next call reaches an agent that listens again at once: a
     * reconciliation after an agent restart need not wait it out.
     */
    void reconnectNow();

    /** Closes the channel if this client owns it. */
    @Override
    void close();
}
