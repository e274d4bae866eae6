/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfQueue;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.Optional;

/**
 * Where the UPF service keeps its model: in memory in the embedded host, in
 * ONOS consistent maps in ONOS (every instance sees the same sessions after
 * a mastership change).
 */
public interface UpfStore {

    /**
     * A new id for a session or firewall rule, never handed out before.
     *
     * @return id, at least 1
     */
    long nextId();

    /**
     * Every session.
     *
     * @return sessions
     */
    Collection<UpfSessionRecord> sessions();

    /**
     * A session.
     *
     * @param id id
     * @return the session
     */
    Optional<UpfSessionRecord> session(long id);

    /**
     * The session of a UE on a device (a hybrid promotion looks one up
     * among the slow path's millions). A store without an index by UE
     * looks through every session.
     *
     * @param deviceId the device
     * @param ue       the UE's address
     * @return its session there
     */
    default Optional<UpfSessionRecord> sessionOf(DeviceId deviceId, Ip4Address ue) {
        return sessions().stream().filter(r -> r.session().deviceId().equals(deviceId)
                && r.session().ueAddress().equals(ue)).findFirst();
    }

    /**
     * Stores sessions.
     *
     * @param records sessions
     */
    void putSessions(Collection<UpfSessionRecord> records);

    /**
     * Removes a session.
     *
     * @param id id
     */
    void removeSession(long id);

    /**
     * Every application.
     *
     * @return applications
     */
    Collection<UpfApplication> applications();

    /**
     * Stores an application.
     *
     * @param app application
     */
    void putApplication(UpfApplication app);

    /**
     * Removes an application.
     *
     * @param deviceId device
     * @param appId    application id
     */
    void removeApplication(DeviceId deviceId, int appId);

    /**
     * Every firewall rule.
     *
     * @return rules
     */
    Collection<FirewallRule> firewallRules();

    /**
     * Stores a firewall rule.
     *
     * @param rule rule
     */
    void putFirewallRule(FirewallRule rule);

    /**
     * Removes a firewall rule.
     *
     * @param id id
     */
    void removeFirewallRule(long id);

    /**
     * Every QFI → queue mapping.
     *
     * @return mappings
     */
    Collection<UpfQueue> queues();

    /**
     * Stores a mapping, replacing the QFI's earlier one.
     *
     * @param queue mapping
     */
    void putQueue(UpfQueue queue);

    /**
     * Removes a QFI's mapping.
     *
     * @param deviceId device
     * @param qfi      QFI
     */
    void removeQueue(DeviceId deviceId, int qfi);

    /**
     * Every interface.
     *
     * @return interfaces
     */
    Collection<UpfInterface> interfaces();

    /**
     * Stores an interface.
     *
     * @param iface interface
     */
    void putInterface(UpfInterface iface);

    /**
     * Removes an interface.
     *
     * @param iface interface
     */
    void removeInterface(UpfInterface iface);
}
