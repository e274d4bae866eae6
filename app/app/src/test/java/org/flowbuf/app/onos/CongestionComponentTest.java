/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.app.config.CcSettings;
import org.flowbuf.app.config.CongestionAppConfig;
import org.flowbuf.app.store.ClusterStorage;
import org.flowbuf.pipeconf.CcP4Names;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.graph.ScalarWeight;
import org.onlab.packet.IpAddress;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onlab.packet.VlanId;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.GroupId;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultDisjointPath;
import org.onosproject.net.DefaultHost;
import org.onosproject.net.DefaultLink;
import org.onosproject.net.DefaultPath;
import org.onosproject.net.DeviceId;
import org.onosproject.net.DisjointPath;
import org.onosproject.net.Host;
import org.onosproject.net.HostId;
import org.onosproject.net.HostLocation;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flow.FlowRuleStoreException;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.group.DefaultGroup;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;
import org.onosproject.net.group.GroupServiceAdapter;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.link.LinkServiceAdapter;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.DefaultPacketContext;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.net.topology.PathService;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The congestion component against ONOS's test adapters, on a square
 * s1-s2-s4 / s1-s3-s4 with h1 on s1 and h2 on s4: the FlowBuf switches it
 * masters get their switch id (with reports) and clone sessions, a flow
 * takes the PathService's disjoint pair, and a switch-over report by
 * packet-in moves it as a digest does in the embedded host.
 */
public class CongestionComponentTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");
    private static final DeviceId S1 = sw(1);
    private static final DeviceId S4 = sw(4);
    private static final DeviceId OTHER = sw(9);  // another pipeconf: left alone
    private static final long WAIT_MS = 10_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<Link> links = List.of(link(1, 10, 2, 10), link(2, 10, 1, 10),
                                             link(2, 11, 4, 10), link(4, 10, 2, 11),
                                             link(1, 11, 3, 10), link(3, 10, 1, 11),
                                             link(3, 11, 4, 11), link(4, 11, 3, 11));
    private final List<FlowRule> added = new CopyOnWriteArrayList<>();
    private final Map<DeviceId, Map<GroupKey, Group>> groups = new ConcurrentHashMap<>();
    private final OnosFakes.Packets packets = new OnosFakes.Packets();
    private final FakeDevices devices = new FakeDevices().with(S1, sw(2), sw(3), S4, OTHER);
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final List<FlowRule> applied = new CopyOnWriteArrayList<>();
    /** How many flow rule writes fail next, as a new master's before its term is synchronized. */
    private final AtomicInteger failingWrites = new AtomicInteger();
    private final FakePiTranslations translations = new FakePiTranslations(order);
    private final OnosFakes.Mastership mastership = new OnosFakes.Mastership();
    private final CongestionComponent component = new CongestionComponent();
    /** The cluster's storage: kept across an ONOS restart (its data/). */
    private final ClusterStorage storage = new ClusterStorage();
    /** ONOS's netcfg apps."org.flowbuf.app".congestion; empty: none. */
    private final ObjectNode congestion = MAPPER.createObjectNode();

    private static DeviceId sw(int n) {
        return DeviceId.deviceId("device:s" + n);
    }

    private static Link link(int a, int pa, int b, int pb) {
        return DefaultLink.builder().providerId(PID)
                .src(new ConnectPoint(sw(a), PortNumber.portNumber(pa)))
                .dst(new ConnectPoint(sw(b), PortNumber.portNumber(pb)))
                .type(Link.Type.DIRECT).state(Link.State.ACTIVE).build();
    }

    private List<Link> route(int... switches) {
        List<Link> route = new ArrayList<>();
        for (int i = 0; i + 1 < switches.length; i++) {
            DeviceId a = sw(switches[i]);
            DeviceId b = sw(switches[i + 1]);
            route.add(links.stream().filter(l -> l.src().deviceId().equals(a)
                    && l.dst().deviceId().equals(b)).findFirst().orElseThrow());
        }
        return route;
    }

    private static Host host(String name, int mac, DeviceId at) {
        MacAddress m = MacAddress.valueOf(String.format("00:00:00:00:00:%02x", mac));
        return new DefaultHost(PID, HostId.hostId(m, VlanId.NONE), m, VlanId.NONE,
                               new HostLocation(at, PortNumber.portNumber(1), 0),
                               Set.of(IpAddress.valueOf("10.0.0." + mac)),
                               DefaultAnnotations.builder().set(AnnotationKeys.NAME, name).build());
    }

    private static <T> T unused(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                }));
    }

    @Before
    public void setUp() {
        component.coreService = OnosFakes.core();
        component.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                if (failingWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new FlowRuleStoreException("Connection refused: the dead master");
                }
                ops.stages().forEach(stage -> stage.stream()
                        .filter(op -> op.type() == FlowRuleOperation.Type.ADD)
                        .forEach(op -> added.add(op.rule())));
                ops.callback().onSuccess(ops);
            }

            @Override
            public void applyFlowRules(FlowRule... rules) {
                List.of(rules).forEach(r -> order.add("apply " + r.table()));
                applied.addAll(List.of(rules));
            }
        };
        component.groupService = new GroupServiceAdapter() {
            @Override
            public void addGroup(GroupDescription d) {
                DefaultGroup g = new DefaultGroup(GroupId.valueOf(d.givenGroupId()), d);
                g.setState(Group.GroupState.ADDED);
                groups.computeIfAbsent(d.deviceId(), k -> new ConcurrentHashMap<>())
                        .put(d.appCookie(), g);
            }

            @Override
            public Group getGroup(DeviceId deviceId, GroupKey appCookie) {
                return groups.getOrDefault(deviceId, Map.of()).get(appCookie);
            }
        };
        List<Host> hosts = List.of(host("h1", 1, S1), host("h2", 2, S4));
        component.hostService = new HostServiceAdapter() {
            @Override
            public Iterable<Host> getHosts() {
                return hosts;
            }
        };
        DisjointPath pair = new DefaultDisjointPath(
                PID, new DefaultPath(PID, route(1, 2, 4), ScalarWeight.toWeight(2)),
                new DefaultPath(PID, route(1, 3, 4), ScalarWeight.toWeight(2)));
        component.pathService = (PathService) Proxy.newProxyInstance(
                PathService.class.getClassLoader(), new Class<?>[]{PathService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getDisjointPaths")) {
                        return args[0].equals(S1) && args[1].equals(S4) ? Set.of(pair) : Set.of();
                    }
                    if (method.getName().equals("getPaths")) {
                        return Set.of();  // no third path: no new backup after a switch-over
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        component.linkService = new LinkServiceAdapter() {
            @Override
            public Set<Link> getDeviceEgressLinks(DeviceId deviceId) {
                return links.stream().filter(l -> l.src().deviceId().equals(deviceId))
                        .collect(Collectors.toSet());
            }

            @Override
            public Iterable<Link> getActiveLinks() {
                return links;
            }
        };
        component.deviceService = devices;
        component.mastershipService = mastership;
        component.packetService = packets;
        component.netcfgRegistry = new NetworkConfigRegistryAdapter() {
            @Override
            public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
                if (!configClass.equals(CongestionAppConfig.class) || congestion.isEmpty()) {
                    return null;
                }
                CongestionAppConfig config = new CongestionAppConfig();
                config.init((ApplicationId) subject, CongestionAppConfig.CONFIG_KEY, congestion,
                            MAPPER, c -> { });
                return configClass.cast(config);
            }
        };
        component.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
                // s2 runs the hybrid UPF's fast-path profile: the same program.
                return Optional.of(OTHER.equals(deviceId) ? new PiPipeconfId("org.other")
                                   : sw(2).equals(deviceId) ? FlowBufPipeconfs.UPF_FAST_ID
                                   : FlowBufPipeconfs.PIPECONF_ID);
            }

            @Override
            public Optional<PiPipeconf> getPipeconf(DeviceId deviceId) {
                return Optional.of(FakePiTranslations.pipeconf());
            }
        };
        component.translationService = translations;
        component.bufferService = unused(BufferService.class);
        component.intentService = unused(FlowBufIntentService.class);
        component.storageService = storage;
        component.activate();
    }

    @After
    public void tearDown() {
        component.deactivate();
        assertEquals(List.of(), packets.processors);
        assertEquals(List.of(), devices.listeners);
    }

    private static void await(String what, BooleanSupplier done) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("not within " + WAIT_MS + " ms: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }

    private long switchIdRules(DeviceId device) {
        return added.stream().filter(r -> r.deviceId().equals(device)
                && r.table().equals(CcP4Names.SWITCH)).count();
    }

    private Set<Integer> sessions(DeviceId device) {
        return groups.getOrDefault(device, Map.of()).values().stream()
                .map(g -> g.id().id()).collect(Collectors.toSet());
    }

    private void prepared() {
        await("s1..s4 prepared", () -> sessions(S4).size() == 5 && sessions(S1).size() == 5);
    }

    @Test
    public void theFlowBufSwitchesItMastersGetTheirIdReportsAndCloneSessions() {
        prepared();
        for (int n = 1; n <= 4; n++) {
            assertEquals(1, switchIdRules(sw(n)));
        }
        FlowRule id = added.stream().filter(r -> r.deviceId().equals(S1)
                && r.table().equals(CcP4Names.SWITCH)).findFirst().orElseThrow();
        PiAction action = (PiAction) ((PiInstruction) id.treatment().allInstructions().get(0))
                .action();
        assertEquals("switch-overs reported by packet-in", ImmutableByteSequence.copyFrom(1L),
                     action.parameters().stream().filter(p -> p.id().equals(CcP4Names.REPORT))
                             .findFirst().orElseThrow().value());
        // The CPU session, and a notification and a marker session per inter-switch port.
        assertEquals(Set.of(99, 1010, 1011, 2010, 2011), sessions(S1));
        Group cpu = groups.get(S1).values().stream().filter(g -> g.id().id() == 99).findFirst()
                .orElseThrow();
        assertEquals(Group.Type.CLONE, cpu.type());
        assertEquals(DefaultTrafficTreatment.builder().setOutput(PortNumber.CONTROLLER).build(),
                     cpu.buckets().buckets().get(0).treatment());
        assertEquals(0, switchIdRules(OTHER));
        assertEquals(Set.of(), sessions(OTHER));
    }

    private static CcFlowRequest.Builder request() {
        return CcFlowRequest.builder().hosts("h1", "h2").budgetUs(1_000_000).m(5)
                .filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                .ipProto(17).l4DstPort(5000).build());
    }

    private static List<DeviceId> devicesOf(CcPath path) {
        return path.hops().stream().map(CcHop::device).collect(Collectors.toList());
    }

    private static byte[] report(int flow, int slot) {
        ByteBuffer b = ByteBuffer.allocate(14 + CcP4Names.REPORT_BYTES);
        b.put(new byte[12]).putShort((short) CcP4Names.ETHERTYPE_NOTIFY);
        b.putShort((short) flow).putShort((short) 42).putInt(1500).putInt(20).put((byte) slot);
        return b.array();
    }

    /** Hands a packet-in to the component's processor; whether it took it. */
    private boolean packetIn(DeviceId device, byte[] frame) {
        ConnectPoint from = new ConnectPoint(device, PortNumber.portNumber(10));
        PacketContext context = new DefaultPacketContext(
                System.currentTimeMillis(),
                new DefaultInboundPacket(from, null, ByteBuffer.wrap(frame)),
                new DefaultOutboundPacket(device, null, ByteBuffer.wrap(frame)), false) {
            @Override
            public void send() {
            }
        };
        packets.processors.forEach(p -> p.process(context));
        return context.isHandled();
    }

    @Test
    public void aFlowTakesTheDisjointPairAndAReportMovesItAsADigestWould() {
        prepared();
        LatencyCriticalFlow flow = component.register(request().build());
        assertEquals(List.of(S1, sw(2), S4), devicesOf(flow.primary()));
        assertEquals(List.of(S1, sw(3), S4), devicesOf(flow.backup().orElseThrow()));
        assertTrue(added.stream().anyMatch(r -> r.deviceId().equals(S1)
                && r.table().equals(CcP4Names.FLOWS)));
        assertTrue("a report is the component's", packetIn(S1, report(flow.index(), 1)));
        await("the switch-over recorded", () -> !component.flow(flow.id()).orElseThrow()
                .switchOvers().isEmpty());
        LatencyCriticalFlow moved = component.flow(flow.id()).orElseThrow();
        assertEquals(List.of(S1, sw(3), S4), devicesOf(moved.primary()));
        assertEquals(S1, moved.switchOvers().get(0).device());
        assertEquals(1500, moved.switchOvers().get(0).queueUs());
        // The same report again changes nothing: the flow is in slot 1 already. The
        // worker handles reports in order: once s2 is prepared again, the report is done.
        assertTrue(packetIn(S1, report(flow.index(), 1)));
        comesBack(sw(2));
        await("s2 prepared again after the report", () -> switchIdRules(sw(2)) == 2);
        assertEquals(1, component.flow(flow.id()).orElseThrow().switchOvers().size());
    }

    @Test
    public void aNetcfgChangeOfXAppliesToTheNextRegistration() {
        prepared();
        LatencyCriticalFlow before = component.register(request().build());
        congestion.put("factor", 2);
        LatencyCriticalFlow after = component.register(
                request().filter(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                                         .ipProto(17).l4DstPort(5001).build()).build());
        // The default idle queuing delay on every switch: X times it, then 2 times it.
        assertEquals(5 * CcSettings.DEFAULT_IDLE_QUEUE_US, before.thresholds().get(S1).queueUs());
        assertEquals(2 * CcSettings.DEFAULT_IDLE_QUEUE_US, after.thresholds().get(S1).queueUs());
        assertEquals("the first flow keeps its thresholds", 5 * CcSettings.DEFAULT_IDLE_QUEUE_US,
                     component.flow(before.id()).orElseThrow().thresholds().get(S1).queueUs());
    }

    @Test
    public void otherPacketInsAreLeftToOtherProcessors() {
        assertFalse(packetIn(S1, new byte[60]));
        byte[] notification = new byte[14 + 12];
        ByteBuffer.wrap(notification).putShort(12, (short) CcP4Names.ETHERTYPE_NOTIFY);
        assertFalse(packetIn(S1, notification));
    }

    @Test
    public void anUnknownHostIsRefusedAndNothingIsWritten() {
        prepared();
        int before = added.size();
        try {
            component.register(request().hosts("h1", "h9").build());
            fail("an unknown host must be refused");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
        }
        assertEquals(before, added.size());
        assertEquals(List.of(), List.copyOf(component.flows()));
    }

    private void comesBack(DeviceId device) {
        devices.comesBack(device);
    }

    @Test
    public void aSwitchThatComesBackGetsItsFlowsAgain() {
        prepared();
        LatencyCriticalFlow flow = component.register(request().build());
        long s4Entries = added.stream().filter(r -> r.deviceId().equals(S4)).count();
        comesBack(S4);
        await("s4's id and entries written again", () -> switchIdRules(S4) == 2
                && added.stream().filter(r -> r.deviceId().equals(S4)).count()
                        > s4Entries + 1);
        assertTrue(component.flow(flow.id()).isPresent());
        assertEquals(1, StreamSupport.stream(component.flows().spliterator(), false).count());
    }

    private void firstEvent(DeviceId device) {
        devices.post(DeviceEvent.Type.DEVICE_ADDED, device);
    }

    @Test
    public void afterAnOnosRestartAFlowsEntriesAreKnownToOnosBeforeItReadsTheSwitch() {
        // ONOS restarted: its PI translation and flow stores are empty, and
        // its first read of the switch (on the availability event) deletes
        // what they cannot account for; takeOn writes them again only after
        // that. Now claimed on the switch's first event, on its thread.
        prepared();
        LatencyCriticalFlow flow = component.register(request().build());
        List<FlowRule> s4 = added.stream().filter(r -> r.deviceId().equals(S4))
                .collect(Collectors.toList());
        order.clear();
        firstEvent(S4);
        assertEquals(Set.copyOf(s4), Set.copyOf(translations.learnt.values()));
        assertEquals(Set.copyOf(s4), Set.copyOf(applied));
        assertTrue(s4.stream().anyMatch(r -> r.table().equals(CcP4Names.SWITCH)));
        assertTrue(s4.size() > 1);
        List<String> fromFirstWrite = order.subList(order.indexOf("apply "
                + applied.get(0).table()), order.size());
        assertTrue(order.toString(), fromFirstWrite.stream().noneMatch(o -> o.startsWith("learn")));
        assertTrue(component.flow(flow.id()).isPresent());
    }

    @Test
    public void congestionEntriesAreClaimedOnceOnlyOnlyByTheMasterOfAFlowBufSwitch() {
        prepared();
        component.register(request().build());
        firstEvent(S4);
        int written = applied.size();
        order.clear();
        firstEvent(S4);
        assertEquals(List.of(), order);
        firstEvent(OTHER);  // not a FlowBuf switch
        mastership.master = false;
        firstEvent(S1);
        assertEquals(List.of(), order);
        assertEquals(written, applied.size());
    }

    @Test
    public void aFlowOutlivesAnOnosRestartAndItsEntriesAreClaimedOnTheSwitchsFirstEvent() {
        // The flows are in the cluster's store, which ONOS keeps across a
        // restart (data/): the restarted component lists the flow, claims
        // its entries before ONOS's first read of a switch, and removes it.
        prepared();
        LatencyCriticalFlow flow = component.register(request().build());
        List<FlowRule> s4 = added.stream().filter(r -> r.deviceId().equals(S4))
                .collect(Collectors.toList());
        component.deactivate();
        component.activate();
        assertEquals(List.of(flow.id()), component.flows().stream()
                .map(LatencyCriticalFlow::id).collect(Collectors.toList()));
        applied.clear();
        firstEvent(S4);
        assertTrue(applied.containsAll(s4.stream().filter(r -> !r.table().equals(CcP4Names.SWITCH))
                                               .collect(Collectors.toList())));
        component.remove(flow.id());
        assertEquals(List.of(), List.copyOf(component.flows()));
    }

    @Test
    public void aNewMasterWritesTheFlowsEntriesOnItsSwitchAgain() {
        // The dead master's last writes may not have reached ONOS's flow
        // store, and the new master's first read of the switch removes what
        // the store lacks: the new master writes the flows' entries again.
        prepared();
        component.register(request().build());
        List<FlowRule> s4 = added.stream().filter(r -> r.deviceId().equals(S4)
                && !r.table().equals(CcP4Names.SWITCH)).collect(Collectors.toList());
        assertFalse(s4.isEmpty());
        added.clear();
        mastership.master = false;
        mastership.becomesMaster(S4);
        await("s4's flow entries written again", () -> added.containsAll(s4));
    }

    @Test
    public void aNewMasterWhoseFlowStoreStillAsksTheDeadMasterTriesAgain() {
        // ONOS live, three instances: the new master's flow store sent its
        // first requests to the killed instance ("Connection refused") until
        // it synchronized the device's new term.
        prepared();
        component.register(request().build());
        List<FlowRule> s4 = added.stream().filter(r -> r.deviceId().equals(S4)
                && !r.table().equals(CcP4Names.SWITCH)).collect(Collectors.toList());
        added.clear();
        failingWrites.set(3);
        mastership.becomesMaster(S4);
        await("s4's flow entries written again after three refused writes",
              () -> added.containsAll(s4));
        assertEquals(0, failingWrites.get());
    }

    @Test
    public void aNewMasterOfASwitchNotConnectedLeavesItToItsDeviceEvents() {
        prepared();
        component.register(request().build());
        List<FlowRule> s4 = added.stream().filter(r -> r.deviceId().equals(S4)
                && !r.table().equals(CcP4Names.SWITCH)).collect(Collectors.toList());
        added.clear();
        devices.available.remove(S4);
        mastership.becomesMaster(S4);
        devices.available.add(S1);  // an event behind it on the same worker
        mastership.becomesMaster(S1);
        await("s1's flows taken on", () -> added.stream().anyMatch(r -> r.deviceId().equals(S1)));
        assertTrue(added.stream().noneMatch(r -> r.deviceId().equals(S4)));
        devices.comesBack(S4);
        await("s4's flow entries written when it connects", () -> added.containsAll(s4));
    }

    @Test
    public void anInstanceThatIsNotTheSourcesMasterListsAFlowButRefusesToChangeIt() {
        prepared();
        LatencyCriticalFlow flow = component.register(request().build());
        int written = added.size();
        mastership.master = false;  // s1's mastership moved to another instance
        assertEquals(flow.primary(), component.flow(flow.id()).orElseThrow().primary());
        try {
            component.remove(flow.id());
            fail("only the source's master removes a flow");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("master of " + S1));
        }
        try {
            component.register(request().filter(FlowFilter.builder()
                    .ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17).l4DstPort(5001)
                    .build()).build());
            fail("only the source's master registers a flow");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertEquals(written, added.size());
        mastership.master = true;  // and back: it acts again
        component.remove(flow.id());
        assertEquals(List.of(), List.copyOf(component.flows()));
    }
}
