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
import org.flowbuf.app.upf.UpfSessionRecord;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.TestStorageService;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** What one instance stores, another reads back: the serializer and the maps. */
public class DistributedUpfStoreTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    private static <T> T roundTrip(T value) {
        return DistributedUpfStore.SERIALIZER.decode(DistributedUpfStore.SERIALIZER.encode(value));
    }

    @Test
    public void everyUpfObjectSurvivesTheSerializer() {
        PduSession s = PduSession.builder().id(3).deviceId(S1).ueAddress(Ip4Address.valueOf("10.250.0.1"))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(1).gnbAddress(Ip4Address.valueOf("10.0.0.1"))
                .downlinkTeid(2).gnbPort(41000).qfi(9).ambr(UpfMeter.of(1, 2, 3, 4)).build();
        UpfSessionRecord record = new UpfSessionRecord(s, 5, 6);
        assertEquals(record, roundTrip(record));
        UpfFilter filter = UpfFilter.builder().ueAddress(Ip4Prefix.valueOf("10.250.0.0/16")).ipProto(17)
                .appPort(PortRange.of("appPorts", 80, 90)).build();
        UpfApplication app = new UpfApplication(S1, 7, 10, filter, 5, UpfMeter.of(1, 2, 3, 4));
        assertEquals(app, roundTrip(app));
        FirewallRule rule = new FirewallRule(9, S1, UpfDirection.UPLINK, filter, FirewallRule.Action.DENY, 3);
        assertEquals(rule, roundTrip(rule));
        UpfInterface iface = new UpfInterface(S1, UpfInterface.Kind.CORE, Ip4Prefix.valueOf("10.250.0.0/16"));
        assertEquals(iface, roundTrip(iface));
        // PortRange.ANY comes back equal (not the same instance).
        assertEquals(UpfFilter.builder().ipProto(6).build(), roundTrip(UpfFilter.builder().ipProto(6).build()));
    }

    @Test
    public void theStoreKeepsWhatItIsGiven() {
        DistributedUpfStore store = new DistributedUpfStore(new TestStorageService());
        long id = store.nextId();
        assertEquals(id + 1, store.nextId());
        PduSession s = PduSession.builder().id(id).deviceId(S1).ueAddress(Ip4Address.valueOf("10.250.0.1"))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(1)
                .gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(2).build();
        store.putSessions(List.of(new UpfSessionRecord(s, 1, 1)));
        assertEquals(s, store.session(id).get().session());
        store.removeSession(id);
        assertEquals(0, store.sessions().size());
        UpfInterface iface = new UpfInterface(S1, UpfInterface.Kind.ACCESS, Ip4Prefix.valueOf("10.0.0.100/32"));
        store.putInterface(iface);
        assertEquals(List.of(iface), List.copyOf(store.interfaces()));
        store.removeInterface(iface);
        assertEquals(0, store.interfaces().size());
    }

    private static UpfSessionRecord sessionFor(long id, DeviceId device, String ue) {
        return new UpfSessionRecord(PduSession.builder().id(id).deviceId(device)
                .ueAddress(Ip4Address.valueOf(ue)).n3Address(Ip4Address.valueOf("10.0.0.100"))
                .uplinkTeid(id).gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(id)
                .build(), 1, 1);
    }

    @Test
    public void aUesSessionIsFoundThroughTheIndexOnEveryInstance() {
        ClusterStorage cluster = new ClusterStorage();
        DistributedUpfStore one = new DistributedUpfStore(cluster);
        DistributedUpfStore other = new DistributedUpfStore(cluster);
        DeviceId s2 = DeviceId.deviceId("device:s2");
        Ip4Address ue = Ip4Address.valueOf("10.250.0.7");
        one.putSessions(List.of(sessionFor(1, S1, "10.250.0.7"), sessionFor(2, s2, "10.250.0.7"),
                                sessionFor(3, S1, "10.250.0.8")));
        assertEquals(1, other.sessionOf(S1, ue).get().session().id());
        assertEquals(2, other.sessionOf(s2, ue).get().session().id());
        assertEquals(Long.valueOf(1), indexOf(cluster).get(S1 + "#" + ue).value());
        // The session moved to another UE: the old UE has none, the new one has it.
        other.putSessions(List.of(sessionFor(1, S1, "10.250.0.9")));
        assertTrue(one.sessionOf(S1, ue).isEmpty());
        assertEquals(1, one.sessionOf(S1, Ip4Address.valueOf("10.250.0.9")).get().session().id());
        assertNull(indexOf(cluster).get(S1 + "#" + ue));
        one.removeSession(1);
        assertTrue(other.sessionOf(S1, Ip4Address.valueOf("10.250.0.9")).isEmpty());
        assertEquals(List.of(S1 + "#10.250.0.8", s2 + "#" + ue),
                     indexOf(cluster).keySet().stream().sorted().collect(Collectors.toList()));
    }

    @Test
    public void aSessionTheIndexMissesIsFoundByALookAndIndexed() {
        ClusterStorage cluster = new ClusterStorage();
        DistributedUpfStore store = new DistributedUpfStore(cluster);
        // Stored by a version without the index: only the sessions' map has it.
        ConsistentMap<Long, UpfSessionRecord> sessions = cluster.<Long, UpfSessionRecord>
                consistentMapBuilder().withName("flowbuf-upf-sessions")
                .withSerializer(DistributedUpfStore.SERIALIZER).build();
        sessions.put(4L, sessionFor(4, S1, "10.250.0.4"));
        assertEquals(4, store.sessionOf(S1, Ip4Address.valueOf("10.250.0.4")).get().session().id());
        assertEquals(Long.valueOf(4), indexOf(cluster).get(S1 + "#10.250.0.4").value());
        // An index entry whose session is gone finds nothing.
        sessions.remove(4L);
        assertTrue(store.sessionOf(S1, Ip4Address.valueOf("10.250.0.4")).isEmpty());
    }

    private static ConsistentMap<String, Long> indexOf(ClusterStorage cluster) {
        return cluster.<String, Long>consistentMapBuilder().withName("flowbuf-upf-sessions-by-ue")
                .withSerializer(DistributedUpfStore.SERIALIZER).build();
    }
}
