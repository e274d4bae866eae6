/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.PduSession;
import org.flowbuf.app.store.ClusterStorage;
import org.flowbuf.app.store.DistributedUpfStore;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;

/**
 * The store's look-up of a UE's session by its index, as sessions change:
 * the embedded host's store and ONOS's answer alike.
 */
@RunWith(Parameterized.class)
public class InMemoryUpfStoreTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    private final UpfStore store;

    /**
     * Runs the tests on a store.
     *
     * @param name  the store's name
     * @param store makes the store
     */
    public InMemoryUpfStoreTest(String name, Supplier<UpfStore> store) {
        this.store = store.get();
    }

    /**
     * The stores.
     *
     * @return name and maker of each
     */
    @Parameterized.Parameters(name = "{0}")
    public static List<Object[]> stores() {
        Supplier<UpfStore> inMemory = InMemoryUpfStore::new;
        Supplier<UpfStore> distributed = () -> new DistributedUpfStore(new ClusterStorage());
        return List.of(new Object[]{"embedded", inMemory}, new Object[]{"ONOS", distributed});
    }

    private static UpfSessionRecord record(long id, DeviceId device, String ue) {
        PduSession s = PduSession.builder().id(id).deviceId(device).ueAddress(Ip4Address.valueOf(ue))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(100 + id)
                .gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(200 + id).qfi(9).build();
        return new UpfSessionRecord(s, (int) id, 1);
    }

    private Optional<Long> idOf(DeviceId device, String ue) {
        return store.sessionOf(device, Ip4Address.valueOf(ue)).map(r -> r.session().id());
    }

    @Test
    public void aUesSessionIsFoundOnItsDeviceOnly() {
        store.putSessions(List.of(record(1, S2, "10.250.0.1"), record(2, S1, "10.250.0.1")));
        assertEquals(Optional.of(1L), idOf(S2, "10.250.0.1"));
        assertEquals(Optional.of(2L), idOf(S1, "10.250.0.1"));
        assertEquals(Optional.empty(), idOf(S2, "10.250.0.2"));
    }

    @Test
    public void aSessionStoredAgainUnderAnotherUeMovesInTheIndexAndARemovedOneGoes() {
        store.putSessions(List.of(record(1, S2, "10.250.0.1")));
        store.putSessions(List.of(record(1, S2, "10.250.0.9")));
        assertEquals(Optional.empty(), idOf(S2, "10.250.0.1"));
        assertEquals(Optional.of(1L), idOf(S2, "10.250.0.9"));
        store.removeSession(1);
        assertEquals(Optional.empty(), idOf(S2, "10.250.0.9"));
    }
}
