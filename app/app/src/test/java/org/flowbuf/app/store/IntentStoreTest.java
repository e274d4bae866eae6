/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.app.intent.InMemoryIntentStore;
import org.flowbuf.app.intent.IntentStore;
import org.flowbuf.app.intent.SteeringRule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.store.service.TestStorageService;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * The same contract for the in-memory and the distributed intent store.
 */
@RunWith(Parameterized.class)
public class IntentStoreTest {

    static final FlowFilter FILTER = FlowFilter.builder()
            .ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).ipProto(17).l4DstPort(9000).build();

    private final IntentStore store;

    /**
     * Runs every test on one store.
     *
     * @param name    store name, for the report
     * @param factory makes the store
     */
    public IntentStoreTest(String name, Supplier<IntentStore> factory) {
        this.store = factory.get();
    }

    /**
     * The stores under test.
     *
     * @return name and factory of each
     */
    @Parameterized.Parameters(name = "{0}")
    public static List<Object[]> stores() {
        Supplier<IntentStore> memory = InMemoryIntentStore::new;
        Supplier<IntentStore> distributed = () -> new DistributedIntentStore(new TestStorageService());
        return List.of(new Object[]{"in-memory", memory}, new Object[]{"distributed", distributed});
    }

    static FlowBufIntent intent(IntentId id, FlowBufIntent.State state) {
        return new FlowBufIntent(id, FlowBufIntent.Type.PAUSE, DeviceId.deviceId("device:s1"),
                                 PortNumber.portNumber(1), FILTER, BufferId.bufferId("b1"), state,
                                 "app", null);
    }

    @Test
    public void idsAreUniqueAndIntentsKeepTheirLatestVersion() {
        IntentId a = store.nextId();
        IntentId b = store.nextId();
        assertNotEquals(a, b);
        assertEquals(Optional.empty(), store.put(intent(a, FlowBufIntent.State.REQUESTED)));
        assertEquals(FlowBufIntent.State.REQUESTED,
                     store.put(intent(a, FlowBufIntent.State.INSTALLED)).orElseThrow().state());
        assertEquals(FlowBufIntent.State.INSTALLED, store.get(a).orElseThrow().state());
        assertEquals(Optional.empty(), store.get(b));
        assertEquals(1, store.intents().size());
    }

    @Test
    public void aRemovedIntentIsForgotten() {
        IntentId a = store.nextId();
        IntentId b = store.nextId();
        store.put(intent(a, FlowBufIntent.State.WITHDRAWN));
        store.put(intent(b, FlowBufIntent.State.INSTALLED));
        store.remove(a);
        assertEquals(Optional.empty(), store.get(a));
        assertEquals(List.of(b), List.copyOf(store.intents().keySet()));
    }

    @Test
    public void rulesOfInstalledIntentsAreKeptUntilRemoved() {
        IntentId a = store.nextId();
        SteeringRule rule = new SteeringRule(FILTER, false, 1L, 100, 100);
        DeviceId s1 = DeviceId.deviceId("device:s1");
        store.putRule(a, s1, rule);
        assertEquals(Map.of(a, rule), store.rules());
        assertEquals(Optional.of(a), store.ruleOwner(s1, rule));
        assertEquals("the same rule on another device is not owned",
                     Optional.empty(), store.ruleOwner(DeviceId.deviceId("device:s2"), rule));
        assertEquals(Optional.empty(),
                     store.ruleOwner(s1, new SteeringRule(FILTER, false, 2L, 100, 100)));
        IntentId b = store.nextId();
        store.removeRule(a);
        store.putRule(b, s1, rule);  // a later intent takes the rule over
        assertEquals(Optional.of(b), store.ruleOwner(s1, rule));
        store.removeRule(a);  // forgetting an old owner again leaves the new one
        assertEquals(Optional.of(b), store.ruleOwner(s1, rule));
        store.removeRule(b);
        assertTrue(store.rules().isEmpty());
        assertEquals(Optional.empty(), store.ruleOwner(s1, rule));
    }

    @Test
    public void theSerializerRoundTripsIntentsAndRules() {
        FlowBufIntent intent = intent(IntentId.intentId(5), FlowBufIntent.State.FAILED);
        FlowBufIntent back = DistributedIntentStore.SERIALIZER.decode(
                DistributedIntentStore.SERIALIZER.encode(intent));
        assertEquals(intent.filter(), back.filter());
        assertEquals(intent.bufferId(), back.bufferId());
        assertEquals(intent.state(), back.state());
        SteeringRule rule = new SteeringRule(FILTER, true, null, 2, 200);
        assertEquals(rule, DistributedIntentStore.SERIALIZER.decode(
                DistributedIntentStore.SERIALIZER.encode(rule)));
    }
}
