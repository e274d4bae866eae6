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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import java.util.stream.Collectors;

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

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    private static FlowBufIntent pause(IntentId id, DeviceId device, long port, FlowFilter filter,
                                       FlowBufIntent.State state) {
        return new FlowBufIntent(id, FlowBufIntent.Type.PAUSE, device, PortNumber.portNumber(port),
                                 filter, BufferId.bufferId("b" + id.id()), state, "app", null);
    }

    private Set<IntentId> pausesOf(DeviceId device, FlowFilter filter) {
        return store.installedPauses(device, filter).stream().map(FlowBufIntent::id)
                .collect(Collectors.toSet());
    }

    // The paths of IntentLedger: opened, installed with its rule, failed,
    // superseded (rule removed, then withdrawn), forgotten.
    @Test
    public void installedPausesFollowInstallWithdrawFailAndRemove() {
        FlowFilter atPort2 = FlowFilter.builder().inPort(PortNumber.portNumber(2))
                .ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).ipProto(17).l4DstPort(9000).build();
        SteeringRule rule = new SteeringRule(FILTER, false, 1L, 100, 100);
        IntentId a = store.nextId();
        store.put(pause(a, S1, 1, FILTER, FlowBufIntent.State.REQUESTED));
        assertEquals("a requested pause holds no rule", Set.of(), pausesOf(S1, FILTER));
        store.putRule(a, S1, rule);
        store.put(pause(a, S1, 1, FILTER, FlowBufIntent.State.INSTALLED));
        assertEquals(Set.of(a), pausesOf(S1, FILTER));
        assertEquals("the in-port is ignored", Set.of(a), pausesOf(S1, atPort2));
        assertEquals(Set.of(), pausesOf(DeviceId.deviceId("device:s2"), FILTER));
        assertEquals(Set.of(), pausesOf(S1, FlowFilter.builder().ipProto(6).build()));

        IntentId b = store.nextId();  // the same flow at another port
        store.putRule(b, S1, new SteeringRule(atPort2, false, 2L, 100, 100));
        store.put(pause(b, S1, 2, atPort2, FlowBufIntent.State.INSTALLED));
        assertEquals(Set.of(a, b), pausesOf(S1, FILTER));

        IntentId c = store.nextId();  // refused: never installed
        store.put(pause(c, S1, 1, FILTER, FlowBufIntent.State.REQUESTED));
        store.put(pause(c, S1, 1, FILTER, FlowBufIntent.State.FAILED));
        assertEquals(Set.of(a, b), pausesOf(S1, FILTER));

        store.removeRule(a);  // superseded: the rule goes first
        assertEquals("an intent without its rule is not counted", Set.of(b), pausesOf(S1, FILTER));
        store.put(pause(a, S1, 1, FILTER, FlowBufIntent.State.WITHDRAWN));
        assertEquals(Set.of(b), pausesOf(S1, FILTER));
        store.put(pause(b, S1, 2, atPort2, FlowBufIntent.State.FAILED));  // rule kept, intent failed
        assertEquals(Set.of(), pausesOf(S1, FILTER));
        store.put(pause(b, S1, 2, atPort2, FlowBufIntent.State.INSTALLED));
        assertEquals(Set.of(b), pausesOf(S1, FILTER));
        store.remove(b);
        assertEquals("a forgotten intent is not counted", Set.of(), pausesOf(S1, FILTER));
        store.put(new FlowBufIntent(c, FlowBufIntent.Type.RESUME, S1, PortNumber.portNumber(1),
                                    FILTER, null, FlowBufIntent.State.INSTALLED, "app", null));
        store.putRule(c, S1, rule);
        assertEquals("a resume is not a pause", Set.of(), pausesOf(S1, FILTER));
    }

    // Random steps on both stores, each answer compared with a scan of every
    // installed rule (the interface's default).
    @Test
    public void installedPausesAgreeWithAScanOfTheRules() {
        Random random = new Random(40);
        List<FlowFilter> filters = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            filters.add(FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0." + f + "/32"))
                                .build());
        }
        List<DeviceId> devices = List.of(S1, DeviceId.deviceId("device:s2"));
        FlowBufIntent.State[] states = FlowBufIntent.State.values();
        List<IntentId> ids = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            IntentId id = ids.isEmpty() || random.nextInt(4) == 0 ? store.nextId()
                    : ids.get(random.nextInt(ids.size()));
            if (!ids.contains(id)) {
                ids.add(id);
            }
            DeviceId device = devices.get((int) (id.id() % devices.size()));
            FlowFilter filter = filters.get((int) (id.id() / 2 % filters.size()));
            switch (random.nextInt(4)) {
                case 0:
                    store.putRule(id, device, new SteeringRule(filter, false, 1L, 100, 100));
                    break;
                case 1:
                    store.removeRule(id);
                    break;
                case 2:
                    store.remove(id);
                    break;
                default:
                    store.put(pause(id, device, 1 + id.id() % 3, filter,
                                    states[random.nextInt(states.length)]));
            }
            Map<IntentId, SteeringRule> rules = store.rules();
            for (IntentId i : ids) {
                assertEquals("step " + step + ", rule of " + i,
                             Optional.ofNullable(rules.get(i)), store.rule(i));
            }
            for (DeviceId d : devices) {
                for (FlowFilter f : filters) {
                    Set<IntentId> scanned = new HashSet<>();
                    store.rules().keySet().forEach(r -> store.get(r)
                            .filter(i -> IntentStore.isInstalledPause(i, d, f))
                            .ifPresent(i -> scanned.add(i.id())));
                    assertEquals("step " + step, scanned, pausesOf(d, f));
                }
            }
        }
    }

    // Threads put and remove the rules of their own intents at once (some
    // rules shared between them, as a superseding intent takes one over):
    // each sees its own intent's rule by id as it left it, whatever the
    // others do, and afterwards every id's rule is the one the copy of all
    // rules gives.
    @Test
    public void ruleByIdAgreesWithTheCopyOfAllRulesUnderConcurrentChanges() throws Exception {
        int threads = 4;
        int steps = 2000;
        List<SteeringRule> shared = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            shared.add(new SteeringRule(FILTER, false, (long) r + 1, 100, 100));
        }
        List<IntentId> all = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            List<IntentId> mine = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                mine.add(store.nextId());
            }
            all.addAll(mine);
            int seed = t;
            running.add(new Thread(() -> {
                Random random = new Random(seed);
                Map<IntentId, SteeringRule> expected = new HashMap<>();
                try {
                    go.await();
                    for (int step = 0; step < steps; step++) {
                        IntentId id = mine.get(random.nextInt(mine.size()));
                        if (random.nextBoolean()) {
                            SteeringRule rule = random.nextBoolean()
                                    ? shared.get(random.nextInt(shared.size()))
                                    : new SteeringRule(FILTER, true, 100L + seed, id.id(), 200);
                            store.putRule(id, S1, rule);
                            expected.put(id, rule);
                        } else {
                            store.removeRule(id);
                            expected.remove(id);
                        }
                        assertEquals(Optional.ofNullable(expected.get(id)), store.rule(id));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        running.forEach(Thread::start);
        go.countDown();
        for (Thread t : running) {
            t.join(60_000);
        }
        assertEquals(List.of(), failures);
        Map<IntentId, SteeringRule> rules = store.rules();
        for (IntentId id : all) {
            assertEquals("rule of " + id, Optional.ofNullable(rules.get(id)), store.rule(id));
        }
        assertEquals(Optional.empty(), store.rule(store.nextId()));
    }
}
