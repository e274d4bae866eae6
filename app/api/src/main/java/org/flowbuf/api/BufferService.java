/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Task-level Buffer Service (Programmable Buffers): create a buffer in a
 * given state and move it between states; the service issues the minimal
 * southbound calls (Forwarding to Buffering is one set_vport_mode: RX_TX to
 * RX on the buffer's vport).
 */
public interface BufferService {

    /**
     * Owner of what operators create through REST and the CLI without naming
     * an owner, and of buffers adopted from an agent (whose first owner is
     * unknown), so that operators can release them.
     */
    String OPERATOR = "org.flowbuf.rest";

    /**
     * Creates a buffer on a device, bound to a free vport of the device, and
     * puts it in the given state.
     *
     * @param deviceId device
     * @param id       buffer id
     * @param owner    owning application
     * @param spec     size and behaviour
     * @param state    FREE, BUFFERING or FORWARDING (an empty buffer cannot
     *                 be STORING, and SERVING it would send nothing)
     * @return the buffer
     * @throws FlowBufException INVALID, NOT_FOUND (device), CONFLICT (id
     *                          taken, no free vports), EXHAUSTED, UNAVAILABLE
     */
    Buffer createBuffer(DeviceId deviceId, BufferId id, String owner, BufferSpec spec,
                        BufferState state);

    /**
     * An empty BUFFERING buffer for an application that needs one now and
     * does not mind its id: a ready buffer when the device keeps some made
     * ahead with this spec (no agent call; its id is the one it was made
     * with), otherwise one created now under {@code idIfCreated}.
     *
     * @param deviceId    device
     * @param idIfCreated buffer id, should a buffer be created now
     * @param owner       owning application
     * @param spec        size and behaviour
     * @return the buffer, BUFFERING and empty
     * @throws FlowBufException as {@link #createBuffer}
     */
    default Buffer allocateBuffer(DeviceId deviceId, BufferId idIfCreated, String owner,
                                  BufferSpec spec) {
        return createBuffer(deviceId, idIfCreated, owner, spec, BufferState.BUFFERING);
    }

    /**
     * Moves a buffer to a state with the fewest southbound calls.
     *
     * @param deviceId device
     * @param id       buffer id
     * @param owner    calling application (must own the buffer)
     * @param state    target state
     * @return the buffer in its new state
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, CONFLICT (e.g. FREE while
     *                          packets are held), UNAVAILABLE
     */
    Buffer moveBuffer(DeviceId deviceId, BufferId id, String owner, BufferState state);

    /**
     * Removes a buffer, which must be FREE unless discard is set.
     *
     * @param deviceId device
     * @param id       buffer id
     * @param owner    calling application
     * @param discard  drop held packets (counted by the agent)
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, CONFLICT, UNAVAILABLE
     */
    void removeBuffer(DeviceId deviceId, BufferId id, String owner, boolean discard);

    /**
     * Returns a buffer with its current occupancy.
     *
     * @param deviceId device
     * @param id       buffer id
     * @return the buffer, if it exists
     */
    Optional<Buffer> getBuffer(DeviceId deviceId, BufferId id);

    /**
     * Returns the buffers of a device.
     *
     * @param deviceId device
     * @return buffers
     */
    Collection<Buffer> getBuffers(DeviceId deviceId);

    /**
     * Returns the counters of a buffer, straight from its agent.
     *
     * @param deviceId device
     * @param id       buffer id
     * @return statistics, empty when the buffer does not exist
     * @throws FlowBufException UNAVAILABLE when the agent cannot be reached
     */
    Optional<BufferStatistics> getStatistics(DeviceId deviceId, BufferId id);

    /**
     * Returns the latest events of a buffer, oldest first (a bounded history).
     *
     * @param deviceId device
     * @param id       buffer id
     * @return events, empty for an unknown buffer
     */
    List<BufferEvent> getEvents(DeviceId deviceId, BufferId id);

    /**
     * Returns the devices configured with a buffer agent.
     *
     * @return device ids
     */
    Set<DeviceId> getDevices();

    /**
     * Returns the vports of a device, free or bound.
     *
     * @param deviceId device
     * @return vports in configuration order
     */
    List<Vport> getVports(DeviceId deviceId);

    /**
     * Reconciles the service's view of a device's buffers with its agent:
     * buffers the agent has and the service does not know are adopted
     * (owner {@link #OPERATOR}, held packets kept); buffers the service
     * knows and the agent lost are created again in their state; buffers
     * an agent re-attached from its state directory after a crash are
     * reported once, with the packets they kept and those lost while the
     * agent was down.
     *
     * @param deviceId device
     * @return one BUFFER_ADOPTED, BUFFER_RECREATED or BUFFER_REATTACHED
     *         event per change
     * @throws FlowBufException NOT_FOUND (no agent), UNAVAILABLE
     */
    List<BufferEvent> reconcile(DeviceId deviceId);

    /**
     * Drops every packet a buffer holds up to the first one with a packet id
     * (FMM's inter-buffer synchronisation: the packets another buffer
     * already delivered). The dropped packets are counted as purged.
     *
     * @param deviceId  device
     * @param id        buffer id
     * @param owner     calling application (must own the buffer)
     * @param packetId  the packet to purge up to
     * @param inclusive also drop that packet
     * @return packets purged; empty when no held packet has that id (then
     *         nothing was purged)
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    Optional<Long> purgeUpTo(DeviceId deviceId, BufferId id, String owner, PacketId packetId,
                             boolean inclusive);

    /**
     * Purges a buffer that holds a copy of a stream another buffer delivered
     * up to a packet (FMM's sync point) up to, and including, that packet,
     * whether its copy has arrived or not. Copies arrive in the stream's
     * order, so when the buffer does not hold the packet yet everything it
     * holds came before it: that is purged, and the agent drops arrivals up
     * to the packet as they come (at most for a bound the agent counts). A
     * packet the buffer let go lately is behind what it holds: nothing is
     * purged. The dropped packets are counted as purged.
     *
     * @param deviceId device
     * @param id       buffer id
     * @param owner    calling application (must own the buffer)
     * @param packetId the sync point
     * @return packets purged now; empty when the agent could not sync the
     *         buffer (a drop-head window that dropped packets for room since
     *         its last sync point cannot tell a late packet from one it
     *         dropped; an agent that predates the await): nothing purged
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    Optional<Long> purgeToSyncPoint(DeviceId deviceId, BufferId id, String owner,
                                    PacketId packetId);

    /**
     * Watches a buffer for a marker packet (the LMM end marker): onSeen runs,
     * on a transport thread, each time a packet matching the pattern enters
     * the buffer, until the returned handle is closed. Keep onSeen short.
     *
     * @param deviceId device
     * @param id       buffer id
     * @param owner    calling application (must own the buffer)
     * @param pattern  what the marker carries
     * @param onSeen   called per marker seen
     * @return handle whose close() ends the watch
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    MarkerWatch watchMarker(DeviceId deviceId, BufferId id, String owner, MarkerPattern pattern,
                            Runnable onSeen);

    /**
     * Arms a one-shot move on the device's agent: the next packet that
     * enters {@code trigger} moves {@code buffer} to {@code state} there and
     * then, without a controller round trip (FMM: the target eNB releases
     * its buffer when the UE's attach signal arrives). With
     * {@code purgeToReport}, the agent first drops what {@code buffer} holds
     * up to, and including, the packet that the trigger packet's receive
     * report names (the UE's last received packet: see the buffer API's
     * ArmTriggerRequest.purge_to_report); a packet without a usable report
     * purges nothing and still moves the buffer. Arming again for the same
     * trigger replaces what it had armed. A later {@link #moveBuffer} or
     * {@link #removeBuffer} of {@code buffer} disarms it first, so a late
     * packet never undoes a later decision; so does {@link #disarm}. Until
     * then the service's view of {@code buffer} keeps its state from before
     * the move.
     *
     * @param deviceId      device of both buffers
     * @param trigger       the buffer whose next packet fires the move
     * @param buffer        the buffer to move
     * @param owner         calling application (must own both)
     * @param state         BUFFERING or FORWARDING (the states a vport mode alone sets)
     * @param purgeToReport purge {@code buffer} to the trigger packet's report first
     * @throws FlowBufException INVALID (another state, or trigger is buffer),
     *                          NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    void armMove(DeviceId deviceId, BufferId trigger, BufferId buffer, String owner,
                 BufferState state, boolean purgeToReport);

    /**
     * Disarms what {@link #armMove} armed on a trigger. When the move had
     * fired, the service's view of the moved buffer takes its new state,
     * and the result says what the fire did.
     *
     * @param deviceId device
     * @param trigger  the trigger buffer
     * @param owner    calling application (must own it)
     * @return whether a move was still armed (it will not fire now), or the
     *         fire of the move armed; nothing when none was armed
     * @throws FlowBufException NOT_FOUND, FORBIDDEN, UNAVAILABLE
     */
    Disarmed disarm(DeviceId deviceId, BufferId trigger, String owner);
}
