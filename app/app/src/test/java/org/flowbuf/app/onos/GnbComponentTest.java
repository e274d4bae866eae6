/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.flowbuf.pipeconf.GnbP4Names;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.core.GroupId;
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
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.provider.ProviderId;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The gNodeB component in ONOS: the device's "gnb" netcfg section becomes
 * its clone session and entries on a FlowBuf switch this instance masters,
 * again when the switch comes back; a bearer added or removed writes only
 * its entries and goes into the section; bad bearers and a refusing device
 * change nothing; a removed section takes everything off.
 */
public class GnbComponentTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");
    private static final DeviceId GNB = DeviceId.deviceId("device:gnb1");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SECTION = "{\"upfPort\": 1, \"cells\": [{\"id\": 1, "
            + "\"radioPort\": 2, \"baasPort\": 100}], \"bearers\": [{\"teid\": 13631489, "
            + "\"cell\": 1, \"ueMac\": \"02:00:00:00:0e:01\", \"uplinkTeid\": 4660, "
            + "\"gnbAddress\": \"10.0.0.200\", \"upfAddress\": \"10.0.0.100\"}]}";
    private static final GnbBearer SECOND = new GnbBearer(
            13631490, 1, MacAddress.valueOf("02:00:00:00:0e:02"), 4661,
            Ip4Address.valueOf("10.0.0.200"), Ip4Address.valueOf("10.0.0.100"));

    private final GnbComponent component = new GnbComponent();
    private final List<FlowRule> added = new CopyOnWriteArrayList<>();
    private final List<FlowRule> removed = new CopyOnWriteArrayList<>();
    private final Map<GroupKey, Group> groups = new ConcurrentHashMap<>();
    private final List<DeviceListener> deviceListeners = new CopyOnWriteArrayList<>();
    private final List<NetworkConfigListener> netcfgListeners = new CopyOnWriteArrayList<>();
    private final List<ConfigFactory<?, ?>> factories = new CopyOnWriteArrayList<>();
    private final Map<DeviceId, ObjectNode> netcfg = new ConcurrentHashMap<>();
    private volatile boolean refuse;

    private void start(String section) throws Exception {
        if (section != null) {
            netcfg.put(GNB, (ObjectNode) MAPPER.readTree(section));
        }
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(7, name);
            }
        };
        component.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                if (refuse) {
                    ops.callback().onError(ops);
                    return;
                }
                ops.stages().forEach(stage -> stage.forEach(op -> (op.type()
                        == FlowRuleOperation.Type.REMOVE ? removed : added).add(op.rule())));
                ops.callback().onSuccess(ops);
            }
        };
        component.groupService = new GroupServiceAdapter() {
            @Override
            public void addGroup(GroupDescription d) {
                DefaultGroup g = new DefaultGroup(GroupId.valueOf(d.givenGroupId()), d);
                g.setState(Group.GroupState.ADDED);
                groups.put(d.appCookie(), g);
            }

            @Override
            public Group getGroup(DeviceId deviceId, GroupKey appCookie) {
                return groups.get(appCookie);
            }

            @Override
            public void removeGroup(DeviceId deviceId, GroupKey appCookie, ApplicationId appId) {
                groups.remove(appCookie);
            }
        };
        component.deviceService = new DeviceServiceAdapter() {
            @Override
            public Iterable<Device> getAvailableDevices() {
                return List.of(device());
            }

            @Override
            public boolean isAvailable(DeviceId deviceId) {
                return true;
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
            return node == null ? null : configClass.cast(GnbDeviceConfig.of((DeviceId) subject,
                                                                              node.deepCopy()));
        }

        @Override
        public <S, C extends Config<S>> C applyConfig(S subject, Class<C> configClass,
                                                      JsonNode json) {
            netcfg.put((DeviceId) subject, (ObjectNode) json.deepCopy());
            event(NetworkConfigEvent.Type.CONFIG_UPDATED);
            return getConfig(subject, configClass);
        }
    }

    private void event(NetworkConfigEvent.Type type) {
        NetworkConfigEvent e = new NetworkConfigEvent(type, GNB, GnbDeviceConfig.class);
        netcfgListeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    private static Device device() {
        return new DefaultDevice(PID, GNB, Device.Type.SWITCH, "", "", "", "", new ChassisId(1));
    }

    @After
    public void tearDown() {
        component.deactivate();
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
        waitFor("written", () -> added.size() == 5);
        assertEquals(1, factories.size());
        Group session = groups.values().iterator().next();
        assertEquals(GnbP4Names.BAAS_SESSION_BASE + 100, session.givenGroupId().intValue());
        assertEquals(GroupDescription.Type.CLONE, session.type());
        assertEquals(3, added.stream().filter(r -> r.table().equals(GnbP4Names.PORTS)).count());
        assertEquals(1, component.devices().size());
        GnbDevice gnb = component.device(GNB).orElseThrow();
        assertEquals(1, gnb.upfPort());
        assertEquals(13631489, gnb.bearers().get(0).teid());
        added.clear();
        deviceListeners.forEach(l -> l.event(new DeviceEvent(
                DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, device())));
        waitFor("written again", () -> added.size() == 5);
    }

    @Test
    public void anAddedBearerWritesItsTwoEntriesAndGoesIntoTheSection() throws Exception {
        start(SECTION);
        waitFor("written", () -> added.size() == 5);
        added.clear();
        GnbDevice gnb = component.addBearer(GNB, SECOND);
        assertEquals(List.of(13631489L, 13631490L), gnb.bearers().stream()
                .map(GnbBearer::teid).collect(Collectors.toList()));
        assertEquals(2, added.size());
        assertEquals(Set.of(GnbP4Names.DOWNLINK_BEARERS, GnbP4Names.UPLINK_BEARERS),
                     added.stream().map(FlowRule::table).collect(Collectors.toSet()));
        assertEquals(2, netcfg.get(GNB).get("bearers").size());
        assertEquals("02:00:00:00:0E:02", netcfg.get(GNB).get("bearers").get(1)
                .get("ueMac").asText());
        // The netcfg echo of the change writes nothing: a rewrite queued behind it on the
        // component's one worker writes the 7 entries, and nothing else came.
        deviceListeners.forEach(l -> l.event(new DeviceEvent(
                DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, device())));
        waitFor("written again", () -> added.size() >= 2 + 7);
        assertEquals(2 + 7, added.size());
        assertTrue(removed.isEmpty());

        added.clear();
        assertEquals(13631489, component.removeBearer(GNB, 13631489).teid());
        // Its two entries go; the second bearer moves to SN cell 0 (its downlink entry).
        assertEquals(2, removed.size());
        assertEquals(1, added.size());
        assertEquals(GnbP4Names.DOWNLINK_BEARERS, added.get(0).table());
        assertEquals(0, param(added.get(0), GnbP4Names.SN_INDEX));
        assertEquals(4661, uplinkTeidOf(component.device(GNB).orElseThrow()));
        assertEquals(1, netcfg.get(GNB).get("bearers").size());
    }

    @Test
    public void badBearersAndARefusingDeviceChangeNothing() throws Exception {
        start(SECTION);
        waitFor("written", () -> added.size() == 5);
        String section = netcfg.get(GNB).toString();
        added.clear();
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
        refuse = true;
        try {
            component.addBearer(GNB, SECOND);
            fail("added on a refusing device");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertEquals(section, netcfg.get(GNB).toString());
        assertEquals(1, component.device(GNB).orElseThrow().bearers().size());
        assertTrue(added.isEmpty());
    }

    @Test
    public void aRemovedSectionTakesTheGnbOff() throws Exception {
        start(SECTION);
        waitFor("written", () -> added.size() == 5);
        netcfg.remove(GNB);
        event(NetworkConfigEvent.Type.CONFIG_REMOVED);
        waitFor("removed", () -> removed.size() == 5 && groups.isEmpty());
        assertTrue(component.devices().isEmpty());
    }

    @Test
    public void aBadSectionIsIgnored() throws Exception {
        start("{\"upfPort\": 1, \"cells\": []}");
        // A good section after it, on the same worker: only its entries are written.
        netcfg.put(GNB, (ObjectNode) MAPPER.readTree(SECTION));
        event(NetworkConfigEvent.Type.CONFIG_UPDATED);
        waitFor("written", () -> added.size() == 5);
        assertEquals(1, groups.size());
        assertEquals(1, component.devices().size());
    }
}
