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

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** The embedded host's UPF store: the model in this process's memory. */
public final class InMemoryUpfStore implements UpfStore {

    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, UpfSessionRecord> sessions = new ConcurrentSkipListMap<>();
    /** Session ids by device and UE address (sessionOf without a look through all). */
    private final Map<List<Object>, Long> byUe = new ConcurrentHashMap<>();
    private final Map<String, UpfApplication> applications = new ConcurrentHashMap<>();
    private final Map<Long, FirewallRule> firewall = new ConcurrentSkipListMap<>();
    private final Map<UpfInterface, Boolean> interfaces = new ConcurrentHashMap<>();
    private final Map<String, UpfQueue> queues = new ConcurrentHashMap<>();

    @Override
    public Collection<UpfQueue> queues() {
        return List.copyOf(queues.values());
    }

    @Override
    public void putQueue(UpfQueue queue) {
        queues.put(key(queue.deviceId(), queue.qfi()), queue);
    }

    @Override
    public void removeQueue(DeviceId deviceId, int qfi) {
        queues.remove(key(deviceId, qfi));
    }

    @Override
    public long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public Collection<UpfSessionRecord> sessions() {
        return List.copyOf(sessions.values());
    }

    @Override
    public Optional<UpfSessionRecord> session(long id) {
        return Optional.ofNullable(sessions.get(id));
    }

    @Override
    public void putSessions(Collection<UpfSessionRecord> records) {
        for (UpfSessionRecord r : records) {
            UpfSessionRecord before = sessions.put(r.session().id(), r);
            if (before != null) {
                byUe.remove(ueKey(before), before.session().id());
            }
            byUe.put(ueKey(r), r.session().id());
        }
    }

    @Override
    public void removeSession(long id) {
        UpfSessionRecord removed = sessions.remove(id);
        if (removed != null) {
            byUe.remove(ueKey(removed), id);
        }
    }

    @Override
    public Optional<UpfSessionRecord> sessionOf(DeviceId deviceId, Ip4Address ue) {
        Long id = byUe.get(List.of(deviceId, ue));
        return Optional.ofNullable(id == null ? null : sessions.get(id))
                .filter(r -> r.session().deviceId().equals(deviceId)
                        && r.session().ueAddress().equals(ue));
    }

    private static List<Object> ueKey(UpfSessionRecord r) {
        return List.of(r.session().deviceId(), r.session().ueAddress());
    }

    @Override
    public Collection<UpfApplication> applications() {
        return List.copyOf(applications.values());
    }

    @Override
    public void putApplication(UpfApplication app) {
        applications.put(key(app.deviceId(), app.appId()), app);
    }

    @Override
    public void removeApplication(DeviceId deviceId, int appId) {
        applications.remove(key(deviceId, appId));
    }

    @Override
    public Collection<FirewallRule> firewallRules() {
        return List.copyOf(firewall.values());
    }

    @Override
    public void putFirewallRule(FirewallRule rule) {
        firewall.put(rule.id(), rule);
    }

    @Override
    public void removeFirewallRule(long id) {
        firewall.remove(id);
    }

    @Override
    public Collection<UpfInterface> interfaces() {
        return new ArrayList<>(interfaces.keySet());
    }

    @Override
    public void putInterface(UpfInterface iface) {
        interfaces.put(iface, true);
    }

    @Override
    public void removeInterface(UpfInterface iface) {
        interfaces.remove(iface);
    }

    static String key(DeviceId deviceId, int appId) {
        return deviceId + "#" + appId;
    }
}
