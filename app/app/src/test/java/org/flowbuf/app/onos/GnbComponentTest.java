/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.flowbuf.pipeconf.GnbP4Names;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.runtime.PiAction;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The gNodeB component in ONOS: the device's "gnb" netcfg section becomes
 * its clone session and entries on a FlowBuf switch this instance masters,
 * again when the switch comes back; a bearer rules.added or rules.removed writes only
 * its entries and goes into the section; bad bearers and a refusing device
 * change nothing; a rules.removed section takes everything off.
 */
public class GnbComponentTest {

    private static final DeviceId GNB = DeviceId.deviceId("device:gnb1");
    private static final String SECTION = "{\"upfPort\": 1, \"cells\": [{\"id\": 1, "
            + "\"radioPort\": 2, \"baasPort\": 100}], \"bearers\": [{\"teid\": 13631489, "
            + "\"cell\": 1, \"ueMac\": \"02:00:00:00:0e:01\", \"uplinkTeid\": 4660, "
            + "\"gnbAddress\": \"10.0.0.200\", \"upfAddress\": \"10.0.0.100\"}]}";
    private static final GnbBearer SECOND = new GnbBearer(
            13631490, 1, MacAddress.valueOf("02:00:00:00:0e:02"), 4661,
            Ip4Address.valueOf("10.0.0.200"), Ip4Address.valueOf("10.0.0.100"));

    private final GnbComponent component = new GnbComponent();
    private final FakeFlowRules rules = new FakeFlowRules();
    private final FakeGroups groups = new FakeGroups();
    private final FakeDevices devices = new FakeDevices().with(GNB);
    private final FakeNetcfg<DeviceId, GnbDeviceConfig> netcfg = new FakeNetcfg<>(
            DeviceId.class, GnbDeviceConfig.class, GnbDeviceConfig::of);

    private void start(String section) {
        if (section != null) {
            netcfg.with(GNB, section);
        }
        component.coreService = OnosFakes.core();
        component.flowRuleService = rules;
        component.groupService = groups;
        component.deviceService = devices;
        component.mastershipService = OnosFakes.mastership(() -> true);
        component.pipeconfService = OnosFakes.pipeconfs(d -> FlowBufPipeconfs.PIPECONF_ID);
        component.netcfgRegistry = netcfg;
        component.activate();
    }

    @After
    public void tearDown() {
        component.deactivate();
        assertEquals(List.of(), devices.listeners);
        assertEquals(List.of(), netcfg.listeners);
        assertEquals(List.of(), netcfg.factories);
    }

    /** A parameter of an entry's action. */
    private static long param(FlowRule rule, PiActionParamId id) {
        PiAction a = (PiAction) ((PiInstruction) rule.treatment().allInstructions().get(0))
                .action();
        return new BigInteger(1, a.parameters().stream().filter(p -> p.id().equals(id))
                .findFirst().orElseThrow().value().asArray()).longValue();
    }

    private static long uplinkTeidOf(GnbDevice gnb) {
        return gnb.bearers().get(0).uplinkTeid();
    }

    @Test
    public void theNetcfgSectionIsWrittenAndAgainWhenTheSwitchComesBack() throws Exception {
        start(SECTION);
        OnosFakes.waitFor("written", () -> rules.added.size() == 5);
        assertEquals(1, netcfg.factories.size());
        Group session = groups.groups.values().iterator().next();
        assertEquals(GnbP4Names.BAAS_SESSION_BASE + 100, session.givenGroupId().intValue());
        assertEquals(GroupDescription.Type.CLONE, session.type());
        assertEquals(3, rules.added.stream().filter(r -> r.table().equals(GnbP4Names.PORTS)).count());
        assertEquals(1, component.devices().size());
        GnbDevice gnb = component.device(GNB).orElseThrow();
        assertEquals(1, gnb.upfPort());
        assertEquals(13631489, gnb.bearers().get(0).teid());
        rules.added.clear();
        devices.comesBack(GNB);
        OnosFakes.waitFor("written again", () -> rules.added.size() == 5);
    }

    @Test
    public void anAddedBearerWritesItsTwoEntriesAndGoesIntoTheSection() throws Exception {
        start(SECTION);
        OnosFakes.waitFor("written", () -> rules.added.size() == 5);
        rules.added.clear();
        GnbDevice gnb = component.addBearer(GNB, SECOND);
        assertEquals(List.of(13631489L, 13631490L), gnb.bearers().stream()
                .map(GnbBearer::teid).collect(Collectors.toList()));
        assertEquals(2, rules.added.size());
        assertEquals(Set.of(GnbP4Names.DOWNLINK_BEARERS, GnbP4Names.UPLINK_BEARERS),
                     rules.added.stream().map(FlowRule::table).collect(Collectors.toSet()));
        assertEquals(2, netcfg.sections.get(GNB).get("bearers").size());
        assertEquals("02:00:00:00:0E:02", netcfg.sections.get(GNB).get("bearers").get(1)
                .get("ueMac").asText());
        // The netcfg echo of the change writes nothing: a rewrite queued behind it on the
        // component's one worker writes the 7 entries, and nothing else came.
        devices.comesBack(GNB);
        OnosFakes.waitFor("written again", () -> rules.added.size() >= 2 + 7);
        assertEquals(2 + 7, rules.added.size());
        assertTrue(rules.removed.isEmpty());

        rules.added.clear();
        assertEquals(13631489, component.removeBearer(GNB, 13631489).teid());
        // Its two entries go; the second bearer moves to SN cell 0 (its downlink entry).
        assertEquals(2, rules.removed.size());
        assertEquals(1, rules.added.size());
        assertEquals(GnbP4Names.DOWNLINK_BEARERS, rules.added.get(0).table());
        assertEquals(0, param(rules.added.get(0), GnbP4Names.SN_INDEX));
        assertEquals(4661, uplinkTeidOf(component.device(GNB).orElseThrow()));
        assertEquals(1, netcfg.sections.get(GNB).get("bearers").size());
    }

    @Test
    public void badBearersAndARefusingDeviceChangeNothing() throws Exception {
        start(SECTION);
        OnosFakes.waitFor("written", () -> rules.added.size() == 5);
        String section = netcfg.sections.get(GNB).toString();
        rules.added.clear();
        Map<String, Runnable> bad = Map.of(
                "NOT_FOUND", () -> component.addBearer(DeviceId.deviceId("device:s9"), SECOND),
                "CONFLICT", () -> component.addBearer(GNB, new GnbBearer(
                        13631489, 1, SECOND.ueMac(), 1, SECOND.gnbAddress(),
                        SECOND.upfAddress())),
                "INVALID", () -> component.addBearer(GNB, new GnbBearer(
                        13631490, 2, SECOND.ueMac(), 1, SECOND.gnbAddress(),
                        SECOND.upfAddress())),
                "NOT_FOUND ", () -> component.removeBearer(GNB, 5));
        List<String> reasons = new ArrayList<>();
        bad.forEach((want, call) -> {
            try {
                call.run();
                fail(want + ": accepted");
            } catch (FlowBufException e) {
                assertEquals(e.getMessage(), want.trim(), e.reason().name());
                reasons.add(e.getMessage());
            }
        });
        assertTrue(reasons.toString(), reasons.stream().anyMatch(m -> m.contains("cell 2")));
        rules.refuse = true;
        try {
            component.addBearer(GNB, SECOND);
            fail("rules.added on a refusing device");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertEquals(section, netcfg.sections.get(GNB).toString());
        assertEquals(1, component.device(GNB).orElseThrow().bearers().size());
        assertTrue(rules.added.isEmpty());
    }

    @Test
    public void aRemovedSectionTakesTheGnbOff() throws Exception {
        start(SECTION);
        OnosFakes.waitFor("written", () -> rules.added.size() == 5);
        netcfg.section(GNB, null, NetworkConfigEvent.Type.CONFIG_REMOVED);
        OnosFakes.waitFor("rules.removed", () -> rules.removed.size() == 5 && groups.groups.isEmpty());
        assertTrue(component.devices().isEmpty());
    }

    @Test
    public void aBadSectionIsIgnored() throws Exception {
        start("{\"upfPort\": 1, \"cells\": []}");
        // A good section after it, on the same worker: only its entries are written.
        netcfg.section(GNB, SECTION, NetworkConfigEvent.Type.CONFIG_UPDATED);
        OnosFakes.waitFor("written", () -> rules.added.size() == 5);
        assertEquals(1, groups.groups.size());
        assertEquals(1, component.devices().size());
    }
}
