/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.PortRange;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDirection;
import org.flowbuf.api.upf.UpfFilter;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.app.upf.UpfSessionRecord;
import org.flowbuf.app.upf.UpfStore;
import org.onlab.packet.Ip4Address;
import org.onlab.util.KryoNamespace;
import org.onosproject.net.DeviceId;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.AtomicCounter;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The UPF model in ONOS ConsistentMaps: every instance sees the same
 * sessions and cells, so the device's new master can write them again.
 */
public final class DistributedUpfStore implements UpfStore {

    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(UpfSessionRecord.class, PduSession.class, UpfMeter.class,
                              UpfApplication.class, UpfFilter.class, PortRange.class,
                              FirewallRule.class, FirewallRule.Action.class, UpfDirection.class,
                              UpfInterface.class, UpfInterface.Kind.class, UpfQueue.class)
                    .build("flowbuf-upf"));

    private final ConsistentMap<Long, UpfSessionRecord> sessions;
    /** Session ids by "device#UE" (sessionOf without a look through every session). */
    private final ConsistentMap<String, Long> byUe;
    private final ConsistentMap<String, UpfApplication> applications;
    private final ConsistentMap<Long, FirewallRule> firewall;
    private final ConsistentMap<String, UpfInterface> interfaces;
    private final ConsistentMap<String, UpfQueue> queues;
    private final AtomicCounter ids;

    /**
     * Creates the store on ONOS's storage service.
     *
     * @param storage storage service
     */
    public DistributedUpfStore(StorageService storage) {
        this.sessions = storage.<Long, UpfSessionRecord>consistentMapBuilder()
                .withName("flowbuf-upf-sessions").withSerializer(SERIALIZER).build();
        this.byUe = storage.<String, Long>consistentMapBuilder()
                .withName("flowbuf-upf-sessions-by-ue").withSerializer(SERIALIZER).build();
        this.applications = storage.<String, UpfApplication>consistentMapBuilder()
                .withName("flowbuf-upf-applications").withSerializer(SERIALIZER).build();
        this.firewall = storage.<Long, FirewallRule>consistentMapBuilder()
                .withName("flowbuf-upf-firewall").withSerializer(SERIALIZER).build();
        this.interfaces = storage.<String, UpfInterface>consistentMapBuilder()
                .withName("flowbuf-upf-interfaces").withSerializer(SERIALIZER).build();
        this.queues = storage.<String, UpfQueue>consistentMapBuilder()
                .withName("flowbuf-upf-queues").withSerializer(SERIALIZER).build();
        this.ids = storage.atomicCounterBuilder().withName("flowbuf-upf-ids").build().asAtomicCounter();
    }

    private static <V> List<V> values(ConsistentMap<?, V> map) {
        return map.values().stream().map(Versioned::value).collect(Collectors.toList());
    }

    @Override
    public long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public Collection<UpfSessionRecord> sessions() {
        return values(sessions);
    }

    @Override
    public Optional<UpfSessionRecord> session(long id) {
        return Optional.ofNullable(Versioned.valueOrNull(sessions.get(id)));
    }

    /**
     * The session of a UE on a device, through the index by UE. The index
     * is written after its session and checked against it: an entry left by
     * a session removed or moved to another UE finds nothing. A UE the
     * index does not know (sessions stored by a version without the index,
     * or an instance that stopped between the two writes) is looked for
     * among every session, and the index repaired.
     */
    @Override
    public Optional<UpfSessionRecord> sessionOf(DeviceId deviceId, Ip4Address ue) {
        String key = ueKey(deviceId, ue);
        Long id = Versioned.valueOrNull(byUe.get(key));
        if (id != null) {
            Optional<UpfSessionRecord> found = session(id).filter(r -> isOf(r, deviceId, ue));
            if (found.isPresent()) {
                return found;
            }
        }
        Optional<UpfSessionRecord> scanned = UpfStore.super.sessionOf(deviceId, ue);
        scanned.ifPresent(r -> byUe.put(key, r.session().id()));
        return scanned;
    }

    private static boolean isOf(UpfSessionRecord r, DeviceId deviceId, Ip4Address ue) {
        return r.session().deviceId().equals(deviceId) && r.session().ueAddress().equals(ue);
    }

    @Override
    public void putSessions(Collection<UpfSessionRecord> records) {
        for (UpfSessionRecord r : records) {
            long id = r.session().id();
            UpfSessionRecord before = Versioned.valueOrNull(sessions.put(id, r));
            if (before != null && !isOf(before, r.session().deviceId(), r.session().ueAddress())) {
                byUe.remove(ueKey(before), Long.valueOf(id));  // the value, not a version
            }
            byUe.put(ueKey(r), id);
        }
    }

    @Override
    public void removeSession(long id) {
        UpfSessionRecord removed = Versioned.valueOrNull(sessions.remove(id));
        if (removed != null) {
            byUe.remove(ueKey(removed), Long.valueOf(id));
        }
    }

    private static String ueKey(UpfSessionRecord r) {
        return ueKey(r.session().deviceId(), r.session().ueAddress());
    }

    private static String ueKey(DeviceId deviceId, Ip4Address ue) {
        return deviceId + "#" + ue;
    }

    @Override
    public Collection<UpfApplication> applications() {
        return values(applications);
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
        return values(firewall);
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
        return values(interfaces);
    }

    @Override
    public void putInterface(UpfInterface iface) {
        interfaces.put(iface.toString(), iface);
    }

    @Override
    public void removeInterface(UpfInterface iface) {
        interfaces.remove(iface.toString());
    }

    @Override
    public Collection<UpfQueue> queues() {
        return values(queues);
    }

    @Override
    public void putQueue(UpfQueue queue) {
        queues.put(key(queue.deviceId(), queue.qfi()), queue);
    }

    @Override
    public void removeQueue(DeviceId deviceId, int qfi) {
        queues.remove(key(deviceId, qfi));
    }

    private static String key(DeviceId deviceId, int appId) {
        return deviceId + "#" + appId;
    }

}
