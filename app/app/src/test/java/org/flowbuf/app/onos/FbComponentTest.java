/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.pipeconf.FbP4Names;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.junit.After;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * FB's component in ONOS: a device's "fb" netcfg section becomes its class
 * and shift entries and B on a FlowBuf switch this instance masters once
 * the switch is ready, in full again when it comes back; a changed section
 * writes the difference, a rules.removed one and a stopped component take the
 * entries off; a bad section writes nothing and a bad change leaves the
 * switch as it was. The FlowRuleService is a switch's tables keyed as ONOS
 * keys a rule (device, table, selector, priority).
 */
public class FbComponentTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final ApplicationId APP = new DefaultApplicationId(7, FlowBufManager.APP_NAME);
    private static final String SECTION = "{\"bufferPackets\": 400, \"ports\": [1, 2], "
            + "\"classes\": [{\"queue\": 0, \"alpha\": 0.5}, "
            + "{\"queue\": 7, \"alpha\": 20, \"priority\": \"high\"}]}";
    private static final String CHANGED = "{\"bufferPackets\": 300, \"ports\": [1], "
            + "\"classes\": [{\"queue\": 0, \"alpha\": 0.5}, "
            + "{\"queue\": 7, \"alpha\": 20, \"priority\": \"high\"}]}";

    private final FbComponent component = new FbComponent();
    private final FakeFlowRules rules = new FakeFlowRules();
    private final FakeDevices devices = new FakeDevices();
    private final FakeNetcfg<DeviceId, FbDeviceConfig> netcfg =
            new FakeNetcfg<>(DeviceId.class, FbDeviceConfig.class, FbComponentTest::config);
    private volatile boolean stopped;

    private void start() {
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return APP;
            }
        };
        component.flowRuleService = rules;
        component.deviceService = devices;
        component.mastershipService = OnosFakes.mastership(() -> true);
        component.pipeconfService = OnosFakes.pipeconfs(d -> FlowBufPipeconfs.PIPECONF_ID);
        component.netcfgRegistry = netcfg;
        component.activate();
    }

    private static FbDeviceConfig config(DeviceId device, ObjectNode node) {
        return FakeNetcfg.config(FbDeviceConfig::new, device, FbDeviceConfig.CONFIG_KEY, node);
    }

    /** The entries a section stands for, as FbFlowRules makes them. */
    private static Set<FlowRule> expected(DeviceId device, String section) {
        FbDeviceConfig config = config(device, FakeNetcfg.json(section));
        Set<FlowRule> rules = new HashSet<>(FbFlowRules.entries(APP, device, config));
        rules.add(FbFlowRules.buffer(APP, device, config));
        return rules;
    }

    private void section(DeviceId device, String json, NetworkConfigEvent.Type type) {
        netcfg.section(device, json, type);
    }

    @After
    public void tearDown() {
        if (!stopped) {
            component.deactivate();
        }
        assertEquals(List.of(), devices.listeners);
        assertEquals(List.of(), netcfg.listeners);
        assertEquals(List.of(), netcfg.factories);
    }

    @Test
    public void theSectionIsWrittenWhenTheSwitchIsReadyAndAgainWhenItComesBack()
            throws Exception {
        Set<FlowRule> want = expected(S1, SECTION);
        netcfg.with(S1, SECTION);
        devices.available.add(S2);
        start();  // S1 is not available yet: nothing to write
        assertEquals(1, netcfg.factories.size());
        // S2's section, queued behind the start's work: once it is on S2, S1 was looked at.
        section(S2, CHANGED, NetworkConfigEvent.Type.CONFIG_ADDED);
        Set<FlowRule> second = expected(S2, CHANGED);
        OnosFakes.waitFor("S2 written", () -> rules.runs(S2, second));
        assertEquals(List.of(), rules.onSwitch(S1));
        rules.added.clear();
        devices.comesBack(S1);
        OnosFakes.waitFor("written", () -> rules.runs(S1, want));
        // Written once (its class entries, 2 ports x 8 queues, the shift table and B), nothing
        // rules.removed.
        assertEquals(want.size(), rules.added.size());
        assertEquals(16, rules.added.stream().filter(r -> r.table().equals(FbP4Names.CLASSES)).count());
        assertEquals(1, rules.added.stream().filter(r -> r.table().equals(FbP4Names.BUFFER)).count());
        assertTrue(rules.added.stream().anyMatch(r -> r.table().equals(FbP4Names.SHIFT)));
        assertTrue(rules.removed.isEmpty());
        rules.added.clear();
        devices.comesBack(S1);  // a restarted switch gets everything again
        OnosFakes.waitFor("written again", () -> rules.added.size() == want.size());
        assertTrue(rules.runs(S1, want));
    }

    @Test
    public void aChangedSectionWritesTheDifferenceAndARemovedOneTakesItAllOff() throws Exception {
        devices.available.add(S1);
        netcfg.with(S1, SECTION);
        start();
        Set<FlowRule> first = expected(S1, SECTION);
        OnosFakes.waitFor("written", () -> rules.runs(S1, first));
        rules.added.clear();
        Set<FlowRule> want = expected(S1, CHANGED);
        section(S1, CHANGED, NetworkConfigEvent.Type.CONFIG_UPDATED);
        OnosFakes.waitFor("changed", () -> rules.runs(S1, want));
        // Port 2's 8 class entries go; B (the table's default action) is written over.
        assertEquals(8, rules.removed.stream().filter(r -> r.table().equals(FbP4Names.CLASSES)).count());
        assertFalse(rules.removed.stream().anyMatch(r -> r.table().equals(FbP4Names.BUFFER)));
        assertTrue(rules.added.stream().anyMatch(r -> r.table().equals(FbP4Names.BUFFER)));
        assertFalse(rules.added.stream().anyMatch(r -> r.table().equals(FbP4Names.CLASSES)));
        section(S1, null, NetworkConfigEvent.Type.CONFIG_REMOVED);
        OnosFakes.waitFor("rules.removed", () -> rules.onSwitch(S1).isEmpty());
    }

    @Test
    public void stoppingTakesTheEntriesOff() throws Exception {
        devices.available.add(S1);
        netcfg.with(S1, SECTION);
        start();
        Set<FlowRule> want = expected(S1, SECTION);
        OnosFakes.waitFor("written", () -> rules.runs(S1, want));
        component.deactivate();
        stopped = true;
        assertEquals(List.of(), rules.onSwitch(S1));
    }

    @Test
    public void aBadSectionWritesNothingAndABadChangeLeavesTheSwitchAsItWas() throws Exception {
        devices.available.add(S1);
        devices.available.add(S2);
        netcfg.with(S1, "{\"bufferPackets\": 400, \"ports\": []}");
        start();
        // A good section after it, on the same worker: only its entries are written.
        section(S1, SECTION, NetworkConfigEvent.Type.CONFIG_UPDATED);
        Set<FlowRule> want = expected(S1, SECTION);
        OnosFakes.waitFor("written", () -> rules.runs(S1, want));
        assertEquals(want.size(), rules.added.size());
        for (String bad : List.of("{\"bufferPackets\": 0, \"ports\": [1]}",
                                  "{\"bufferPackets\": 400, \"ports\": [255]}",
                                  "{\"bufferPackets\": 400, \"ports\": [1], "
                                          + "\"classes\": [{\"queue\": 7, \"alpha\": -1}]}",
                                  "{\"bufferPackets\": 400, \"ports\": [1], \"buffer\": 3}")) {
            section(S1, bad, NetworkConfigEvent.Type.CONFIG_UPDATED);
        }
        devices.comesBack(S1);  // the section is still bad: nothing rewritten either
        // S2's section, queued behind them all: once it is on S2, S1's changes were handled.
        section(S2, CHANGED, NetworkConfigEvent.Type.CONFIG_ADDED);
        Set<FlowRule> second = expected(S2, CHANGED);
        OnosFakes.waitFor("S2 written", () -> rules.runs(S2, second));
        assertTrue(rules.runs(S1, want));
        assertEquals(new ArrayList<>(), rules.removed);
        assertEquals(want.size(), rules.added.stream().filter(r -> r.deviceId().equals(S1)).count());
    }
}
