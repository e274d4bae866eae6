/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.pipeconf.FbP4Names;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.provider.ProviderId;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * FB's component in ONOS: a device's "fb" netcfg section becomes its class
 * and shift entries and B on a FlowBuf switch this instance masters once
 * the switch is ready, in full again when it comes back; a changed section
 * writes the difference, a removed one and a stopped component take the
 * entries off; a bad section writes nothing and a bad change leaves the
 * switch as it was. The FlowRuleService is a switch's tables keyed as ONOS
 * keys a rule (device, table, selector, priority).
 */
public class FbComponentTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ApplicationId APP = new DefaultApplicationId(7, FlowBufManager.APP_NAME);
    private static final String SECTION = "{\"bufferPackets\": 400, \"ports\": [1, 2], "
            + "\"classes\": [{\"queue\": 0, \"alpha\": 0.5}, "
            + "{\"queue\": 7, \"alpha\": 20, \"priority\": \"high\"}]}";
    private static final String CHANGED = "{\"bufferPackets\": 300, \"ports\": [1], "
            + "\"classes\": [{\"queue\": 0, \"alpha\": 0.5}, "
            + "{\"queue\": 7, \"alpha\": 20, \"priority\": \"high\"}]}";

    private final FbComponent component = new FbComponent();
    private final Map<FlowRule, FlowRule> tables = new ConcurrentHashMap<>();
    private final List<FlowRule> added = new CopyOnWriteArrayList<>();
    private final List<FlowRule> removed = new CopyOnWriteArrayList<>();
    private final List<DeviceListener> deviceListeners = new CopyOnWriteArrayList<>();
    private final List<NetworkConfigListener> netcfgListeners = new CopyOnWriteArrayList<>();
    private final List<ConfigFactory<?, ?>> factories = new CopyOnWriteArrayList<>();
    private final Map<DeviceId, ObjectNode> netcfg = new ConcurrentHashMap<>();
    private final Set<DeviceId> available = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;

    private void start() {
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return APP;
            }
        };
        component.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                ops.stages().forEach(stage -> stage.forEach(this::apply));
                ops.callback().onSuccess(ops);
            }

            private void apply(FlowRuleOperation op) {
                if (op.type() == FlowRuleOperation.Type.REMOVE) {
                    removed.add(op.rule());
                    tables.remove(op.rule());
                } else {
                    added.add(op.rule());
                    tables.put(op.rule(), op.rule());
                }
            }
        };
        component.deviceService = new DeviceServiceAdapter() {
            @Override
            public Iterable<Device> getAvailableDevices() {
                return available.stream().map(FbComponentTest::device)
                        .collect(Collectors.toList());
            }

            @Override
            public boolean isAvailable(DeviceId deviceId) {
                return available.contains(deviceId);
            }

            @Override
            public void addListener(DeviceListener listener) {
                deviceListeners.add(listener);
            }

            @Override
            public void removeListener(DeviceListener listener) {
                deviceListeners.remove(listener);
            }
        };
        component.mastershipService = new MastershipServiceAdapter() {
            @Override
            public boolean isLocalMaster(DeviceId deviceId) {
                return true;
            }
        };
        component.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
                return Optional.of(FlowBufPipeconfs.PIPECONF_ID);
            }
        };
        component.netcfgRegistry = new Netcfg();
        component.activate();
    }

    /** ONOS's netcfg store, as far as the component uses it. */
    private final class Netcfg extends NetworkConfigRegistryAdapter {
        @Override
        public void registerConfigFactory(ConfigFactory configFactory) {
            factories.add(configFactory);
        }

        @Override
        public void unregisterConfigFactory(ConfigFactory configFactory) {
            factories.remove(configFactory);
        }

        @Override
        public void addListener(NetworkConfigListener listener) {
            netcfgListeners.add(listener);
        }

        @Override
        public void removeListener(NetworkConfigListener listener) {
            netcfgListeners.remove(listener);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S, C extends Config<S>> Set<S> getSubjects(Class<S> subjectClass,
                                                           Class<C> configClass) {
            return (Set<S>) Set.copyOf(netcfg.keySet());
        }

        @Override
        public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
            ObjectNode node = netcfg.get(subject);
            return node == null ? null : configClass.cast(config((DeviceId) subject, node));
        }
    }

    private static FbDeviceConfig config(DeviceId device, ObjectNode node) {
        FbDeviceConfig config = new FbDeviceConfig();
        config.init(device, FbDeviceConfig.CONFIG_KEY, node.deepCopy(), MAPPER, c -> { });
        return config;
    }

    /** The entries a section stands for, as FbFlowRules makes them. */
    private static Set<FlowRule> expected(DeviceId device, String section) throws IOException {
        FbDeviceConfig config = config(device, (ObjectNode) MAPPER.readTree(section));
        Set<FlowRule> rules = new HashSet<>(FbFlowRules.entries(APP, device, config));
        rules.add(FbFlowRules.buffer(APP, device, config));
        return rules;
    }

    private void section(DeviceId device, String json, NetworkConfigEvent.Type type)
            throws IOException {
        if (json == null) {
            netcfg.remove(device);
        } else {
            netcfg.put(device, (ObjectNode) MAPPER.readTree(json));
        }
        NetworkConfigEvent e = new NetworkConfigEvent(type, device, FbDeviceConfig.class);
        netcfgListeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    private void comesBack(DeviceId device) {
        available.add(device);
        DeviceEvent e = new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                        device(device));
        deviceListeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    private static Device device(DeviceId id) {
        return new DefaultDevice(PID, id, Device.Type.SWITCH, "", "", "", "", new ChassisId(1));
    }

    /** The switch's entries: what the FlowRuleService was left with for the device. */
    private List<FlowRule> onSwitch(DeviceId device) {
        return tables.values().stream().filter(r -> r.deviceId().equals(device))
                .collect(Collectors.toList());
    }

    /** Whether the switch has exactly these entries, actions included. */
    private boolean runs(DeviceId device, Set<FlowRule> rules) {
        List<FlowRule> there = onSwitch(device);
        return there.size() == rules.size()
                && rules.stream().allMatch(r -> there.stream().anyMatch(r::exactMatch));
    }

    @After
    public void tearDown() {
        if (!stopped) {
            component.deactivate();
        }
        assertEquals(List.of(), deviceListeners);
        assertEquals(List.of(), netcfgListeners);
        assertEquals(List.of(), factories);
    }

    private static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("not " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    public void theSectionIsWrittenWhenTheSwitchIsReadyAndAgainWhenItComesBack()
            throws Exception {
        Set<FlowRule> want = expected(S1, SECTION);
        netcfg.put(S1, (ObjectNode) MAPPER.readTree(SECTION));
        available.add(S2);
        start();  // S1 is not available yet: nothing to write
        assertEquals(1, factories.size());
        // S2's section, queued behind the start's work: once it is on S2, S1 was looked at.
        section(S2, CHANGED, NetworkConfigEvent.Type.CONFIG_ADDED);
        Set<FlowRule> second = expected(S2, CHANGED);
        waitFor("S2 written", () -> runs(S2, second));
        assertEquals(List.of(), onSwitch(S1));
        added.clear();
        comesBack(S1);
        waitFor("written", () -> runs(S1, want));
        // Written once (its class entries, 2 ports x 8 queues, the shift table and B), nothing
        // removed.
        assertEquals(want.size(), added.size());
        assertEquals(16, added.stream().filter(r -> r.table().equals(FbP4Names.CLASSES)).count());
        assertEquals(1, added.stream().filter(r -> r.table().equals(FbP4Names.BUFFER)).count());
        assertTrue(added.stream().anyMatch(r -> r.table().equals(FbP4Names.SHIFT)));
        assertTrue(removed.isEmpty());
        added.clear();
        comesBack(S1);  // a restarted switch gets everything again
        waitFor("written again", () -> added.size() == want.size());
        assertTrue(runs(S1, want));
    }

    @Test
    public void aChangedSectionWritesTheDifferenceAndARemovedOneTakesItAllOff() throws Exception {
        available.add(S1);
        netcfg.put(S1, (ObjectNode) MAPPER.readTree(SECTION));
        start();
        Set<FlowRule> first = expected(S1, SECTION);
        waitFor("written", () -> runs(S1, first));
        added.clear();
        Set<FlowRule> want = expected(S1, CHANGED);
        section(S1, CHANGED, NetworkConfigEvent.Type.CONFIG_UPDATED);
        waitFor("changed", () -> runs(S1, want));
        // Port 2's 8 class entries go; B (the table's default action) is written over.
        assertEquals(8, removed.stream().filter(r -> r.table().equals(FbP4Names.CLASSES)).count());
        assertFalse(removed.stream().anyMatch(r -> r.table().equals(FbP4Names.BUFFER)));
        assertTrue(added.stream().anyMatch(r -> r.table().equals(FbP4Names.BUFFER)));
        assertFalse(added.stream().anyMatch(r -> r.table().equals(FbP4Names.CLASSES)));
        section(S1, null, NetworkConfigEvent.Type.CONFIG_REMOVED);
        waitFor("removed", () -> onSwitch(S1).isEmpty());
    }

    @Test
    public void stoppingTakesTheEntriesOff() throws Exception {
        available.add(S1);
        netcfg.put(S1, (ObjectNode) MAPPER.readTree(SECTION));
        start();
        Set<FlowRule> want = expected(S1, SECTION);
        waitFor("written", () -> runs(S1, want));
        component.deactivate();
        stopped = true;
        assertEquals(List.of(), onSwitch(S1));
    }

    @Test
    public void aBadSectionWritesNothingAndABadChangeLeavesTheSwitchAsItWas() throws Exception {
        available.add(S1);
        available.add(S2);
        netcfg.put(S1, (ObjectNode) MAPPER.readTree("{\"bufferPackets\": 400, \"ports\": []}"));
        start();
        // A good section after it, on the same worker: only its entries are written.
        section(S1, SECTION, NetworkConfigEvent.Type.CONFIG_UPDATED);
        Set<FlowRule> want = expected(S1, SECTION);
        waitFor("written", () -> runs(S1, want));
        assertEquals(want.size(), added.size());
        for (String bad : List.of("{\"bufferPackets\": 0, \"ports\": [1]}",
                                  "{\"bufferPackets\": 400, \"ports\": [255]}",
                                  "{\"bufferPackets\": 400, \"ports\": [1], "
                                          + "\"classes\": [{\"queue\": 7, \"alpha\": -1}]}",
                                  "{\"bufferPackets\": 400, \"ports\": [1], \"buffer\": 3}")) {
            section(S1, bad, NetworkConfigEvent.Type.CONFIG_UPDATED);
        }
        comesBack(S1);  // the section is still bad: nothing rewritten either
        // S2's section, queued behind them all: once it is on S2, S1's changes were handled.
        section(S2, CHANGED, NetworkConfigEvent.Type.CONFIG_ADDED);
        Set<FlowRule> second = expected(S2, CHANGED);
        waitFor("S2 written", () -> runs(S2, second));
        assertTrue(runs(S1, want));
        assertEquals(new ArrayList<>(), removed);
        assertEquals(want.size(), added.stream().filter(r -> r.deviceId().equals(S1)).count());
    }
}
