/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.testing.GrpcCleanupRule;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.southbound.FakeBufferAgent;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.grpc.api.GrpcChannelController;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.Device;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.flow.DefaultFlowEntry;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flow.FlowRuleStoreException;
import org.onosproject.net.provider.ProviderId;
import org.onlab.packet.ChassisId;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.store.service.TestStorageService;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The component activates against ONOS test adapters, registers its config,
 * drives only devices it is master of, and reconnects on config changes.
 */
public class FlowBufManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final BufferSpec SPEC = BufferSpec.builder().capacityPackets(100).build();

    @Rule
    public final GrpcCleanupRule grpc = new GrpcCleanupRule();

    private final FakeBufferAgent agent = new FakeBufferAgent();
    private final Netcfg netcfg = new Netcfg();
    private final Devices devices = new Devices();
    private final Rules rules = new Rules();
    private final Channels channels = new Channels();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final FakePiTranslations translations = new FakePiTranslations(order);
    private volatile boolean pipeconfBound = true;
    private final FlowBufManager manager = new FlowBufManager();
    private final IntentEventManager intentEvents = new IntentEventManager();
    private final Mastership mastership = new Mastership();
    private String serverName;

    /** This instance masters S1 only. */
    private static final class Mastership extends OnosFakes.Mastership {
        @Override
        public boolean isLocalMaster(DeviceId deviceId) {
            return S1.equals(deviceId);
        }
    }

    /** Netcfg with configs set by the test and the listener kept. */
    private static final class Netcfg extends NetworkConfigRegistryAdapter {
        private final Map<DeviceId, FlowBufDeviceConfig> configs = new HashMap<>();
        private ConfigFactory<?, ?> factory;
        private NetworkConfigListener listener;

        @Override
        public void registerConfigFactory(ConfigFactory configFactory) {
            factory = configFactory;
        }

        @Override
        public void unregisterConfigFactory(ConfigFactory configFactory) {
            factory = null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
            return (C) configs.get(subject);
        }

        @Override
        public void addListener(NetworkConfigListener l) {
            listener = l;
        }

        @Override
        public void removeListener(NetworkConfigListener l) {
            listener = null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S, C extends Config<S>> Set<S> getSubjects(Class<S> subjectClass,
                                                           Class<C> configClass) {
            return (Set<S>) Set.copyOf(configs.keySet());
        }
    }

    /** Devices that are up, and the listener the manager registers. */
    private static final class Devices extends DeviceServiceAdapter {
        private final Set<DeviceId> available = ConcurrentHashMap.newKeySet();
        private DeviceListener listener;

        @Override
        public boolean isAvailable(DeviceId deviceId) {
            return available.contains(deviceId);
        }

        @Override
        public void addListener(DeviceListener l) {
            listener = l;
        }

        @Override
        public void removeListener(DeviceListener l) {
            listener = null;
        }
    }

    /**
     * ONOS's flow store: records the flow rules applied and removed; the
     * device has none to start with.
     */
    private final class Rules extends FlowRuleServiceAdapter {
        private final List<FlowRule> applied = new CopyOnWriteArrayList<>();
        private final List<FlowRule> removed = new CopyOnWriteArrayList<>();
        private final List<FlowEntry> stored = new CopyOnWriteArrayList<>();

        /** How many reads fail next, as a new master's before its term is synchronized. */
        private final AtomicInteger failingReads = new AtomicInteger();

        @Override
        public Iterable<FlowEntry> getFlowEntries(DeviceId deviceId) {
            if (failingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new FlowRuleStoreException("Connection refused: the dead master");
            }
            return stored.stream().filter(e -> e.deviceId().equals(deviceId))
                    .collect(Collectors.toList());
        }

        @Override
        public void applyFlowRules(FlowRule... rules) {
            List.of(rules).forEach(r -> order.add("apply " + r.table()));
            applied.addAll(List.of(rules));
            List.of(rules).forEach(this::store);
        }

        @Override
        public void removeFlowRules(FlowRule... rules) {
            List.of(rules).forEach(r -> order.add("remove " + r.table()));
            removed.addAll(List.of(rules));
            List.of(rules).forEach(r -> stored.removeIf(e -> e.exactMatch(r)));
        }

        @Override
        public void apply(FlowRuleOperations ops) {
            ops.stages().forEach(stage -> stage.forEach(op -> {
                if (op.type() == FlowRuleOperation.Type.REMOVE) {
                    stored.removeIf(e -> e.exactMatch(op.rule()));
                } else {
                    applied.add(op.rule());
                    store(op.rule());
                }
            }));
            ops.callback().onSuccess(ops);
        }

        private void store(FlowRule rule) {
            stored.removeIf(e -> e.exactMatch(rule));
            stored.add(new DefaultFlowEntry(rule));
        }

        List<FlowRule> vportPorts(List<? extends FlowRule> rules) {
            return rules.stream().filter(r -> FlowBufP4Names.VPORT_PORTS.equals(r.table()))
                    .collect(Collectors.toList());
        }

        List<FlowRule> steering() {
            return steering(applied);
        }

        List<FlowRule> steering(List<FlowRule> rules) {
            return rules.stream().filter(r -> FlowBufP4Names.FLOW_STEERING.equals(r.table()))
                    .collect(Collectors.toList());
        }
    }

    /** Channels to the in-process agent, whatever address the config names. */
    private final class Channels implements GrpcChannelController {
        private final List<String> log = new ArrayList<>();

        @Override
        public ManagedChannel create(URI uri) {
            log.add("create " + uri);
            return grpc.register(InProcessChannelBuilder.forName(serverName).directExecutor()
                                         .build());
        }

        @Override
        public ManagedChannel create(URI uri, ManagedChannelBuilder<?> builder) {
            return create(uri);
        }

        @Override
        public void destroy(URI uri) {
            log.add("destroy " + uri);
        }

        @Override
        public Optional<ManagedChannel> get(URI uri) {
            return Optional.empty();
        }
    }

    private static FlowBufDeviceConfig config(DeviceId id, String address) throws IOException {
        return config(id, address, 10);
    }

    /** A device's config with one vport per switch port given. */
    private static FlowBufDeviceConfig config(DeviceId id, String address, long... switchPorts)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ArrayNode vports = mapper.createArrayNode();
        for (long port : switchPorts) {
            vports.addObject().put("id", "vp" + port).put("switchPort", port);
        }
        ObjectNode json = mapper.createObjectNode().put("agentAddress", address);
        json.set("vports", vports);
        FlowBufDeviceConfig config = new FlowBufDeviceConfig();
        config.init(id, FlowBufDeviceConfig.CONFIG_KEY, json, mapper, c -> { });
        return config;
    }

    @Before
    public void setUp() throws Exception {
        serverName = InProcessServerBuilder.generateName();
        grpc.register(InProcessServerBuilder.forName(serverName).directExecutor()
                              .addService(agent).build().start());
        netcfg.configs.put(S1, config(S1, "127.0.0.1:28001"));
        netcfg.configs.put(S2, config(S2, "127.0.0.1:28002"));
        manager.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(42, name);
            }
        };
        manager.netcfgRegistry = netcfg;
        manager.flowRuleService = rules;
        manager.deviceService = devices;
        manager.mastershipService = mastership;
        manager.grpcChannelController = channels;
        manager.storageService = new TestStorageService();
        PiPipeconf bound = FakePiTranslations.pipeconf();
        manager.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconf> getPipeconf(DeviceId deviceId) {
                return pipeconfBound ? Optional.of(bound) : Optional.empty();
            }
        };
        manager.translationService = translations;
        intentEvents.activate();
        manager.intentEventManager = intentEvents;
        manager.activate();
    }

    @After
    public void tearDown() {
        if (netcfg.listener != null) {
            manager.deactivate();
        }
        intentEvents.deactivate();
    }

    @Test
    public void activationRegistersTheDeviceConfigAndListens() {
        assertNotNull(netcfg.factory);
        assertEquals(FlowBufDeviceConfig.CONFIG_KEY, netcfg.factory.configKey());
        assertNotNull(netcfg.listener);
        manager.deactivate();
        assertNull(netcfg.factory);
        assertNull(netcfg.listener);
    }

    @Test
    public void theMasterDrivesTheAgentAndListenersHearIt() throws InterruptedException {
        BlockingQueue<BufferEvent> events = new LinkedBlockingQueue<>();
        manager.addListener(events::add);
        manager.createBuffer(S1, BufferId.bufferId("b1"), "app", SPEC, BufferState.BUFFERING);
        assertTrue(agent.calls.contains("Batch " + FlowBufManager.APP_NAME));
        assertEquals(List.of("create grpc://127.0.0.1:28001"), channels.log);
        BufferEvent event = events.poll(5, TimeUnit.SECONDS);
        assertNotNull("no event within 5 s", event);
        assertEquals(BufferEvent.Type.BUFFER_ADDED, event.type());
    }

    @Test
    public void aStandbyInstanceLeavesTheAgentAlone() {
        try {
            manager.createBuffer(S2, BufferId.bufferId("b1"), "app", SPEC, BufferState.FREE);
            fail("only the master may drive an agent");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertTrue(agent.calls.isEmpty());
        assertTrue(channels.log.isEmpty());
    }

    @Test
    public void aDeviceWithoutConfigIsNotFoundEvenWhereThisInstanceIsNotMaster() {
        // ONOS live: a pause on device:s9 (unknown) answered 503 "not the master"
        // instead of the 404 the embedded mode gives.
        try {
            manager.createBuffer(DeviceId.deviceId("device:s9"), BufferId.bufferId("b1"), "app",
                                 SPEC, BufferState.FREE);
            fail("an unconfigured device has no agent");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
        }
        assertTrue(agent.calls.isEmpty());
        assertTrue(channels.log.isEmpty());
    }

    @Test
    public void aConfigChangeReconnects() throws IOException {
        manager.createBuffer(S1, BufferId.bufferId("b1"), "app", SPEC, BufferState.FREE);
        netcfg.configs.put(S1, config(S1, "127.0.0.1:28009"));
        netcfg.listener.event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, S1,
                                                     FlowBufDeviceConfig.class));
        manager.moveBuffer(S1, BufferId.bufferId("b1"), "app", BufferState.BUFFERING);
        assertEquals(List.of("create grpc://127.0.0.1:28001", "destroy grpc://127.0.0.1:28001",
                             "create grpc://127.0.0.1:28009"), channels.log);
    }

    @Test
    public void aDeviceComingUpGetsTheSteeringRulesOfItsInstalledIntentsBack()
            throws InterruptedException {
        // ONOS live: restarted mid-pause, ONOS came back with an empty flow
        // store and its P4Runtime driver deleted the paused flow's rule.
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        List<FlowRule> paused = rules.steering();
        assertEquals(1, paused.size());
        rules.applied.clear();
        devices.available.add(S1);
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               new DefaultDevice(ProviderId.NONE, S1,
                                                                 Device.Type.SWITCH, "", "", "",
                                                                 "", new ChassisId())));
        long deadline = System.currentTimeMillis() + 5000;
        while (rules.steering().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(paused, rules.steering());
        FlowRule again = rules.steering().get(0);
        assertEquals(paused.get(0).selector(), again.selector());
        assertEquals(paused.get(0).treatment(), again.treatment());
        assertEquals(paused.get(0).priority(), again.priority());
    }

    @Test
    public void aDeviceComingUpGetsItsVportRulesAndItsBuffersReconciled()
            throws InterruptedException {
        Device s1 = new DefaultDevice(ProviderId.NONE, S1, Device.Type.SWITCH, "", "", "", "",
                                      new ChassisId());
        devices.available.add(S1);
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, s1));
        long deadline = System.currentTimeMillis() + 5000;
        while (!agent.calls.contains("ListBuffers " + FlowBufManager.APP_NAME)
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue("the agent was not asked for its buffers",
                   agent.calls.contains("ListBuffers " + FlowBufManager.APP_NAME));
        assertEquals(1, rules.applied.size());
        assertEquals(FlowBufP4Names.VPORT_PORTS, rules.applied.get(0).table());
        // S2 is configured but this instance is not its master: nothing is driven.
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               new DefaultDevice(ProviderId.NONE, S2,
                                                                 Device.Type.SWITCH, "", "", "",
                                                                 "", new ChassisId())));
        Thread.sleep(200);
        assertEquals(1, rules.applied.size());
    }

    @Test
    public void aReconnectedDeviceHasItsSteeringRulesKnownToOnosBeforeOnosReadsIt() {
        // ONOS live, restarted mid-pause: the device's first read (ONOS's flow
        // provider, on the device event) found the paused flow's rule unknown
        // to the empty PI translation store and deleted it; FlowBuf's rewrite,
        // queued behind the vport rules, landed ~235 ms later: 47 packets of
        // a 200 pps flow dropped. Now learnt on the event's thread, before
        // the listener returns, and before it is written; the device need
        // not be available yet (ONOS's DEVICE_ADDED comes before it is).
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        List<FlowRule> paused = rules.steering();
        rules.applied.clear();
        order.clear();
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, device(S1)));
        assertEquals(List.of("learn " + FlowBufP4Names.FLOW_STEERING,
                             "learn " + FlowBufP4Names.VPORT_PORTS,
                             "apply " + FlowBufP4Names.FLOW_STEERING,
                             "apply " + FlowBufP4Names.VPORT_PORTS), order);
        assertEquals(paused, rules.steering(List.copyOf(translations.learnt.values())));
        assertEquals(paused, rules.steering());
        // Not the master of S2: ONOS's read there is another instance's.
        order.clear();
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, device(S2)));
        assertEquals(List.of(), order);
    }

    @Test
    public void aNewMasterWritesTheSteeringRulesItsFlowStoreLacksBeforeTheEventReturns() {
        // ONOS live, three instances: the master killed (-9) just after a
        // pause; the new master's flow store lacked the paused flow's rule
        // (ONOS backs flows up periodically), its first read of the switch
        // deleted it, and the flow went straight to h2 while its held
        // packets waited: the resume delivered 553 of them behind newer ones.
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        List<FlowRule> paused = rules.steering();
        assertEquals(1, paused.size());
        rules.stored.clear();
        rules.applied.clear();
        translations.learnt.clear();
        order.clear();
        // Not connected (after an ONOS restart): left to the device's events.
        mastership.becomesMaster(S1);
        assertEquals(List.of(), order);
        devices.available.add(S1);
        mastership.becomesMaster(S1);
        assertEquals(List.of("learn " + FlowBufP4Names.FLOW_STEERING,
                             "learn " + FlowBufP4Names.VPORT_PORTS,
                             "apply " + FlowBufP4Names.FLOW_STEERING,
                             "apply " + FlowBufP4Names.VPORT_PORTS), order);
        assertEquals(paused, rules.steering());
        // Known to the translation store but not to the flow store: written too.
        rules.stored.clear();
        rules.applied.clear();
        order.clear();
        mastership.becomesMaster(S1);
        assertEquals(paused, rules.steering());
        assertEquals(1, rules.vportPorts(rules.applied).size());
        // Stored as they should be: nothing is written again.
        rules.applied.clear();
        mastership.becomesMaster(S1);
        assertEquals(List.of(), rules.applied);
        // Another instance's device: left alone.
        mastership.becomesMaster(S2);
        assertEquals(List.of(), rules.applied);
    }

    @Test
    public void aNewMasterWhoseFlowStoreStillAsksTheDeadMasterTriesAgain()
            throws InterruptedException {
        // ONOS live, three instances: the new master's first read went to
        // the killed instance ("Connection refused") and threw, 250 ms
        // before its store synchronized the device's new term.
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        List<FlowRule> paused = rules.steering();
        rules.stored.clear();
        rules.applied.clear();
        devices.available.add(S1);
        rules.failingReads.set(3);
        mastership.becomesMaster(S1);
        assertEquals(List.of(), rules.applied);
        long deadline = System.currentTimeMillis() + 10_000;
        while (rules.steering().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(paused, rules.steering());
        assertEquals(0, rules.failingReads.get());
    }

    @Test
    public void aNewMasterWritesAgainARuleItsFlowStoreHoldsWithAnotherAction() {
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        FlowRule paused = rules.steering().get(0);
        devices.available.add(S1);
        // The store's copy is the rule before the pause changed it (another action).
        FlowRule stale = DefaultFlowRule.builder().forDevice(S1).forTable(paused.table())
                .withSelector(paused.selector()).withPriority(paused.priority())
                .fromApp(new DefaultApplicationId(42, FlowBufManager.APP_NAME)).makePermanent()
                .withTreatment(DefaultTrafficTreatment.builder().drop().build()).build();
        assertEquals(paused.id(), stale.id());
        rules.stored.removeIf(e -> e.id().equals(paused.id()));
        rules.stored.add(new DefaultFlowEntry(stale));
        rules.applied.clear();
        mastership.becomesMaster(S1);
        assertEquals(List.of(paused), rules.steering());
        assertTrue(rules.steering().get(0).exactMatch(paused));
    }

    @Test
    public void aPortEventBeforeTheDeviceIsAvailableClaimsTheRulesOnceOnly() {
        // ONOS live, second run: ONOS's read (on the availability event)
        // began before FlowBuf's listener heard that event, ~300 ms later in
        // the listener chain; the ports, from gNMI, come before it.
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        List<FlowRule> paused = rules.steering();
        rules.applied.clear();
        order.clear();
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.PORT_ADDED, device(S1),
                                               new DefaultPort(device(S1),
                                                               PortNumber.portNumber(1), true)));
        assertEquals(List.of("learn " + FlowBufP4Names.FLOW_STEERING,
                             "learn " + FlowBufP4Names.VPORT_PORTS,
                             "apply " + FlowBufP4Names.FLOW_STEERING,
                             "apply " + FlowBufP4Names.VPORT_PORTS), order);
        assertEquals(paused, rules.steering());
        // Known now: the availability event neither learns nor writes them again.
        order.clear();
        devices.available.add(S1);
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               device(S1)));
        assertEquals(List.of(), order.stream().filter(o -> o.contains("flow_steering"))
                .collect(Collectors.toList()));
    }

    @Test
    public void aDeviceWithoutItsPipeconfYetStillGetsItsRulesWritten() {
        FlowFilter filter = FlowFilter.builder().ipProto(17).l4DstPort(9000).build();
        manager.pause(S1, PortNumber.portNumber(1), filter, Optional.empty(), "app");
        rules.applied.clear();
        pipeconfBound = false;
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, device(S1)));
        assertTrue(translations.learnt.isEmpty());
        assertEquals(1, rules.steering().size());
    }

    @Test
    public void aReconnectedDeviceHasItsVportRulesKnownToOnosBeforeOnosReadsIt() throws IOException {
        // ONOS live, restarted: its first read deleted the vport_ports rules
        // (unknown to the empty PI translation store), written again ~1 s
        // later; a resume's replayed packets in between pass as fresh ones.
        netcfg.configs.put(S1, config(S1, "127.0.0.1:28001", 10, 11));
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, device(S1)));
        List<FlowRule> configured = List.of(vportRule(10), vportRule(11));
        assertEquals(configured, rules.vportPorts(List.copyOf(translations.learnt.values())));
        assertEquals(configured, rules.vportPorts(rules.applied));
        // Known now: a port event neither learns nor writes them again.
        order.clear();
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.PORT_ADDED, device(S1),
                                               new DefaultPort(device(S1),
                                                               PortNumber.portNumber(1), true)));
        assertEquals(List.of(), order);
    }

    @Test
    public void aDeviceReadyAgainLeavesItsVportRulesOnTheSwitch() throws InterruptedException {
        // Removing and adding them again left a gap on the switch.
        devices.available.add(S1);
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               device(S1)));
        awaitReconciliations(1);
        assertEquals(List.of(vportRule(10)), rules.vportPorts(rules.applied));
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               device(S1)));
        awaitReconciliations(2);
        assertEquals(List.of(vportRule(10)), rules.vportPorts(rules.applied));
        assertEquals(List.of(), rules.removed);
    }

    @Test
    public void aVportConfigChangeWritesOnlyTheDifference() throws Exception {
        netcfg.configs.put(S1, config(S1, "127.0.0.1:28001", 10, 11));
        devices.available.add(S1);
        devices.listener.event(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED,
                                               device(S1)));
        awaitReconciliations(1);
        rules.applied.clear();
        order.clear();
        netcfg.configs.put(S1, config(S1, "127.0.0.1:28001", 11, 12));
        netcfg.listener.event(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UPDATED, S1,
                                                     FlowBufDeviceConfig.class));
        awaitReconciliations(2);
        assertEquals(List.of(vportRule(10)), rules.removed);
        assertEquals(List.of(vportRule(12)), rules.vportPorts(rules.applied));
        assertEquals(List.of(vportRule(11), vportRule(12)),
                     rules.vportPorts(rules.stored));
    }

    /** Waits until the agent has been asked for its buffers that many times. */
    private void awaitReconciliations(long count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (reconciliations() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(count, reconciliations());
    }

    private long reconciliations() {
        synchronized (agent.calls) {
            return agent.calls.stream()
                    .filter(("ListBuffers " + FlowBufManager.APP_NAME)::equals).count();
        }
    }

    private static FlowRule vportRule(long switchPort) {
        return SteeringFlowRules.vportPortRule(new DefaultApplicationId(42, FlowBufManager.APP_NAME),
                                               S1, switchPort);
    }

    private static Device device(DeviceId id) {
        return new DefaultDevice(ProviderId.NONE, id, Device.Type.SWITCH, "", "", "", "",
                                 new ChassisId());
    }
}
