/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The UPF service: what the pipeline's UPF of each device executes. Every
 * change is checked against the device's state first and refused as a
 * whole ({@link FlowBufException}, nothing written) when any part is wrong.
 */
public interface UpfService {

    /**
     * Every interface.
     *
     * @return interfaces
     */
    Collection<UpfInterface> interfaces();

    /**
     * Adds an interface.
     *
     * @param iface interface
     * @return it
     * @throws FlowBufException INVALID, NOT_FOUND (device), CONFLICT (exists or overlaps)
     */
    UpfInterface addInterface(UpfInterface iface);

    /**
     * Removes an interface no session uses.
     *
     * @param iface interface
     * @throws FlowBufException NOT_FOUND, CONFLICT (sessions use it)
     */
    void removeInterface(UpfInterface iface);

    /**
     * Every session.
     *
     * @return sessions
     */
    Collection<PduSession> sessions();

    /**
     * Per device with sessions: how many, and how many of their downlinks
     * are paused (an installed pause of the UE's address, as
     * {@link #pauseDownlink} makes).
     *
     * @return one summary per device, by device id
     */
    List<UpfDeviceSummary> deviceSummaries();

    /**
     * A session by id.
     *
     * @param id id
     * @return the session
     */
    Optional<PduSession> session(long id);

    /**
     * A session by its UE's address.
     *
     * @param deviceId  device, empty for any
     * @param ueAddress UE address
     * @return the session
     */
    Optional<PduSession> session(Optional<DeviceId> deviceId, Ip4Address ueAddress);

    /**
     * Installs sessions, all or none: those of one device in one write.
     *
     * @param sessions sessions (ids are assigned)
     * @return the installed sessions, with their ids, in order
     * @throws FlowBufException INVALID, NOT_FOUND (device), CONFLICT (UE or TEID
     *                          taken), EXHAUSTED (table or cells full)
     */
    List<PduSession> addSessions(List<PduSession> sessions);

    /**
     * Removes a session.
     *
     * @param id id
     * @return the removed session
     * @throws FlowBufException NOT_FOUND
     */
    PduSession removeSession(long id);

    /**
     * Every application.
     *
     * @return applications
     */
    Collection<UpfApplication> applications();

    /**
     * Adds an application (and a termination for it to every session of the
     * device).
     *
     * @param application application
     * @return it
     * @throws FlowBufException INVALID, NOT_FOUND, CONFLICT (app id taken)
     */
    UpfApplication addApplication(UpfApplication application);

    /**
     * Removes an application.
     *
     * @param deviceId device
     * @param appId    application id
     * @return the removed application
     * @throws FlowBufException NOT_FOUND
     */
    UpfApplication removeApplication(DeviceId deviceId, int appId);

    /**
     * Every firewall rule.
     *
     * @return rules
     */
    Collection<FirewallRule> firewallRules();

    /**
     * Adds a firewall rule.
     *
     * @param rule rule (the id is assigned)
     * @return it, with its id
     * @throws FlowBufException INVALID, NOT_FOUND, CONFLICT (same match and priority)
     */
    FirewallRule addFirewallRule(FirewallRule rule);

    /**
     * Removes a firewall rule.
     *
     * @param id id
     * @return the removed rule
     * @throws FlowBufException NOT_FOUND
     */
    FirewallRule removeFirewallRule(long id);

    /**
     * Every QFI → queue mapping.
     *
     * @return mappings
     */
    Collection<UpfQueue> queues();

    /**
     * Maps a QFI to an egress queue (replacing the QFI's earlier queue).
     *
     * @param queue mapping
     * @return it
     * @throws FlowBufException INVALID, NOT_FOUND (device)
     */
    UpfQueue setQueue(UpfQueue queue);

    /**
     * Removes a QFI's mapping: its packets take the default queue.
     *
     * @param deviceId device
     * @param qfi      QFI
     * @throws FlowBufException NOT_FOUND
     */
    void removeQueue(DeviceId deviceId, int qfi);

    /**
     * Holds a UE's downlink in a FlowBuf buffer, through the intent layer:
     * a pause intent on the port the data network's packets arrive on, for
     * the packets to the UE's address (held before the UPF, as they came).
     *
     * @param sessionId the UE's session
     * @param inPort    where the downlink arrives
     * @return the pause intent, with its buffer
     * @throws FlowBufException NOT_FOUND (session), and as the intent service's pause
     */
    FlowBufIntent pauseDownlink(long sessionId, PortNumber inPort);

    /**
     * Releases a UE's held downlink: its buffer replays what it holds, in
     * order, back into the pipeline, where the UPF encapsulates it towards
     * the gNodeB, and keeps forwarding what arrives after it (no packet
     * overtakes another).
     *
     * @param sessionId the UE's session
     * @return the buffer, now forwarding
     * @throws FlowBufException NOT_FOUND (session, or no paused downlink)
     */
    Buffer resumeDownlink(long sessionId);

    /**
     * Writes everything the service holds for a device again (after the
     * device reconnected or its pipeline was pushed again).
     *
     * @param deviceId device
     * @return how many entries were written
     */
    int reinstall(DeviceId deviceId);
}
