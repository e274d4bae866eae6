/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.app.config.HybridAppConfig;
import org.flowbuf.app.store.DistributedUpfStore;
import org.flowbuf.app.upf.UpfSessionRecord;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.flowbuf.pipeconf.HybridP4Names;
import org.flowbuf.pipeconf.UpfP4Names;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DefaultAnnotations;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.instructions.Instructions;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.host.HostServiceAdapter;
import org.onosproject.net.meter.MeterServiceAdapter;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.DefaultPacketContext;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellHandle;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.p4runtime.api.P4RuntimeClient;
import org.onosproject.p4runtime.api.P4RuntimeController;
import org.onosproject.p4runtime.api.P4RuntimeReadClient;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapBuilder;
import org.onosproject.store.service.TestConsistentMap;
import org.onosproject.store.service.TestStorageService;

import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The hybrid placement component against ONOS's test adapters: the netcfg
 * section makes s1 a fast path (slow_path's default action); a heavy-hitter
 * report promotes a UE whose session is on s2 (hold at the data network's
 * port, the fast path's entries, the end marker down the slow port); the
 * marker's packet-in releases it; the session counter, read over the
 * P4Runtime client with the management address's device id, shows it idle
 * and it is demoted. Reports of a switch another instance masters, bad
 * netcfg and bad REST settings change nothing.
 */
public class HybridPlacementComponentTest {

    private static final ProviderId PID = new ProviderId("p4runtime", "org.flowbuf.test");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final String UE = "10.250.0.7";
    private static final String NETCFG = "{\"fastDevice\": \"device:s1\", \"slowDevice\": \"device:s2\","
            + " \"slowPort\": 3, \"dnPort\": 2, \"fastTableBudget\": 2, \"demoteIdleMs\": 200,"
            + " \"windowMs\": 50}";

    private final FakeFlowRules rules = new FakeFlowRules();
    private final OnosFakes.Packets packets = new OnosFakes.Packets();
    private final FakeDevices devices = new FakeDevices(
            id -> device(id, S1.equals(id) ? 1 : 2)).with(S1, S2);
    private final List<Consumer<HeavyHitter>> hhListeners = new CopyOnWriteArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<Long> readDeviceIds = new CopyOnWriteArrayList<>();
    private final List<PiCounterCellId> readCells = new CopyOnWriteArrayList<>();
    private final SharedStorage storage = new SharedStorage();
    private final HybridPlacementComponent component = new HybridPlacementComponent();
    private volatile boolean master = true;
    private boolean started;

    /** ONOS's test maps, one per name, as ONOS's distributed primitives are. */
    private static final class SharedStorage extends TestStorageService {
        private final Map<String, ConsistentMap<?, ?>> maps = new ConcurrentHashMap<>();

        @Override
        @SuppressWarnings("unchecked")
        public <K, V> ConsistentMapBuilder<K, V> consistentMapBuilder() {
            return new TestConsistentMap.Builder<>() {
                @Override
                public ConsistentMap<K, V> build() {
                    return (ConsistentMap<K, V>) maps.computeIfAbsent(name(), n -> super.build());
                }
            };
        }
    }

    private static Device device(DeviceId id, int p4DeviceId) {
        return new DefaultDevice(PID, id, Device.Type.SWITCH, "", "", "", "", new ChassisId(1),
                                 DefaultAnnotations.builder().set(
                                         AnnotationKeys.MANAGEMENT_ADDRESS,
                                         "grpc://127.0.0.1:50001?device_id=" + p4DeviceId).build());
    }

    private void start(String section) {
        component.coreService = OnosFakes.core();
        component.flowRuleService = rules;
        component.meterService = new MeterServiceAdapter();
        component.storageService = storage;
        component.deviceService = devices;
        component.mastershipService = OnosFakes.mastership(() -> master);
        component.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
                return Optional.of(FlowBufPipeconfs.PIPECONF_ID);
            }

            @Override
            public Optional<PiPipeconf> getPipeconf(DeviceId deviceId) {
                return Optional.of((PiPipeconf) Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[]{PiPipeconf.class},
                        (proxy, method, args) -> {
                            throw new UnsupportedOperationException(method.getName());
                        }));
            }
        };
        component.packetService = packets;
        component.hostService = new HostServiceAdapter() {
            @Override
            public Set<Host> getHostsByIp(IpAddress ip) {
                return Set.of();
            }
        };
        FakeNetcfg<ApplicationId, HybridAppConfig> netcfg = new FakeNetcfg<>(
                ApplicationId.class, HybridAppConfig.class,
                (app, node) -> FakeNetcfg.config(HybridAppConfig::new, app,
                                                 HybridAppConfig.CONFIG_KEY, node));
        if (section != null) {
            netcfg.with(new DefaultApplicationId(7, FlowBufManager.APP_NAME), section);
        }
        component.netcfgRegistry = netcfg;
        component.p4RuntimeController = p4Runtime();
        component.intentService = intents();
        component.bufferService = buffers();
        component.heavyHitterService = heavyHitters();
        component.activate();
        started = true;
    }

    @After
    public void tearDown() {
        if (started) {
            component.deactivate();
            assertEquals(List.of(), packets.processors);
            assertEquals(List.of(), hhListeners);
            assertEquals(List.of(), devices.listeners);
        }
    }

    // ---- fakes ---------------------------------------------------------

    /** A client whose session counter cells hold 1,000 bytes, and stay there. */
    private P4RuntimeController p4Runtime() {
        P4RuntimeReadClient.ReadResponse response = (P4RuntimeReadClient.ReadResponse)
                Proxy.newProxyInstance(getClass().getClassLoader(),
                                       new Class<?>[]{P4RuntimeReadClient.ReadResponse.class},
                                       (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "isSuccess":
                            return true;
                        case "all":
                            return readCells.stream().map(c -> new PiCounterCell(c, 10, 1000))
                                    .collect(Collectors.toList());
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        Object[] request = new Object[1];
        request[0] = Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{P4RuntimeReadClient.ReadRequest.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "handles":
                            readCells.clear();
                            ((Iterable<?>) args[0]).forEach(
                                    h -> readCells.add(((PiCounterCellHandle) h).cellId()));
                            return proxy;
                        case "submitSync":
                            return response;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        P4RuntimeClient client = (P4RuntimeClient) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{P4RuntimeClient.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("read")) {
                        readDeviceIds.add((Long) args[0]);
                        return request[0];
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return (P4RuntimeController) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{P4RuntimeController.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("get")) {
                        return S1.equals(args[0]) ? client : null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "pause":
                            log.add("pause " + args[0] + "/" + args[1] + " " + args[2]);
                            return new FlowBufIntent(IntentId.intentId(1), FlowBufIntent.Type.PAUSE,
                                                     (DeviceId) args[0], (PortNumber) args[1],
                                                     (FlowFilter) args[2], BufferId.bufferId("auto-1"),
                                                     FlowBufIntent.State.INSTALLED, (String) args[4],
                                                     null);
                        case "withdraw":
                            log.add("withdraw " + ((IntentId) args[0]).id());
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "moveBuffer":
                            log.add("move " + args[1] + " " + args[3]);
                            return null;
                        case "removeBuffer":
                            log.add("remove " + args[1]);
                            return null;
                        case "getBuffer":
                            return Optional.<Buffer>empty();
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private HeavyHitterService heavyHitters() {
        return new HeavyHitterService() {
            @Override
            public HeavyHitterSettings settings() {
                return HeavyHitterSettings.of(true, 1_000_000, 1500, 1000);
            }

            @Override
            public void configure(HeavyHitterSettings settings) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<HeavyHitter> recent() {
                return List.of();
            }

            @Override
            public void addListener(Consumer<HeavyHitter> listener) {
                hhListeners.add(listener);
            }

            @Override
            public void removeListener(Consumer<HeavyHitter> listener) {
                hhListeners.remove(listener);
            }
        };
    }

    // ---- helpers -------------------------------------------------------

    private UpfSessionRecord sessionOnSlowPath(String ue) {
        PduSession s = PduSession.builder().id(5).deviceId(S2).ueAddress(Ip4Address.valueOf(ue))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(105)
                .gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(205).qfi(9).build();
        UpfSessionRecord r = new UpfSessionRecord(s, 5, 1);
        new DistributedUpfStore(storage).putSessions(List.of(r));
        return r;
    }

    private void report(DeviceId from, String ue) {
        HeavyHitter hh = new HeavyHitter(from, Ip4Address.valueOf(ue), Ip4Address.valueOf("10.0.2.2"),
                                         17, 4000, 8080, 100, 1, Instant.now());
        hhListeners.forEach(l -> l.accept(hh));
    }

    private boolean packetIn(DeviceId device, byte[] frame) {
        ConnectPoint from = new ConnectPoint(device, PortNumber.portNumber(3));
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

    /** The marker as the slow path sends it back: in GTP-U with a PDU Session Container. */
    private static byte[] tunnelled(byte[] marker) {
        byte[] inner = Arrays.copyOfRange(marker, 14, marker.length);
        byte[] frame = new byte[14 + 20 + 8 + 16 + inner.length];
        frame[12] = 0x08;
        frame[14] = 0x45;
        frame[14 + 9] = 17;
        frame[34 + 2] = 0x08;
        frame[34 + 3] = 0x68;
        frame[42] = 0x34;               // GTPv1, PT, E
        frame[42 + 11] = (byte) 0x85;   // next extension: PDU Session Container
        frame[54] = 1;                  // its length: one word
        System.arraycopy(inner, 0, frame, 58, inner.length);
        return frame;
    }

    private Optional<UePlacement> placement(String ue) {
        return component.placement(Ip4Address.valueOf(ue));
    }

    private long count(FlowRuleOperation.Type type, DeviceId device, Object table) {
        return rules.operations.stream().filter(o -> o.type() == type && o.rule().deviceId().equals(device)
                && o.rule().table().equals(table)).count();
    }

    /** slow_path's default actions written to s1: the port, or 0 for NoAction. */
    private List<Long> slowPorts() {
        List<Long> out = new ArrayList<>();
        for (FlowRuleOperation o : rules.operations) {
            FlowRule r = o.rule();
            if (r.deviceId().equals(S1) && r.table().equals(HybridP4Names.SLOW_PATH)) {
                PiAction a = (PiAction) ((PiInstruction) r.treatment().allInstructions().get(0))
                        .action();
                out.add(a.id().equals(HybridP4Names.TO_SLOW_PATH)
                        ? new BigInteger(1, a.parameters().iterator().next().value().asArray())
                        .longValue() : 0L);
            }
        }
        return out;
    }

    // ---- tests ---------------------------------------------------------

    @Test
    public void aReportPromotesTheMarkerReleasesAndAnIdleUeIsDemoted() throws Exception {
        start(NETCFG);
        OnosFakes.waitFor("the slow port on s1", () -> slowPorts().equals(List.of(3L)));
        UpfSessionRecord record = sessionOnSlowPath(UE);
        assertEquals(UePlacement.Path.SLOW, placement(UE).orElseThrow().path());

        report(S1, UE);
        OnosFakes.waitFor("the end marker", () -> !packets.emitted.isEmpty());
        OutboundPacket marker = packets.emitted.get(0);
        assertEquals(S1, marker.sendThrough());
        assertEquals(List.of(Instructions.createOutput(PortNumber.portNumber(3))),
                     marker.treatment().allInstructions());
        assertEquals("held at the data network's port first",
                     "pause device:s1/2 ", log.get(0).substring(0, "pause device:s1/2 ".length()));
        assertEquals(1, count(FlowRuleOperation.Type.ADD, S1, UpfP4Names.DOWNLINK_SESSIONS));
        assertEquals(1, count(FlowRuleOperation.Type.ADD, S1, UpfP4Names.TUNNEL_PEERS));
        assertTrue(placement(UE).orElseThrow().moving());

        byte[] frame = new byte[marker.data().remaining()];
        marker.data().duplicate().get(frame);
        assertFalse("a marker from the slow path itself is not the fast path's",
                    packetIn(S2, tunnelled(frame)));
        assertTrue("the marker back on the fast path is consumed", packetIn(S1, tunnelled(frame)));
        OnosFakes.waitFor("the promotion", () -> placement(UE).orElseThrow().path() == UePlacement.Path.FAST
                && !placement(UE).orElseThrow().moving());
        assertTrue(log.toString(), log.contains("move auto-1 FORWARDING"));
        assertEquals(1, placement(UE).orElseThrow().promotions());

        // The counter stays at 1,000 bytes: under the rate for 200 ms, demoted.
        OnosFakes.waitFor("the demotion", () -> placement(UE).orElseThrow().demotions() == 1);
        UePlacement after = placement(UE).orElseThrow();
        assertEquals(UePlacement.Path.SLOW, after.path());
        assertEquals(1, count(FlowRuleOperation.Type.REMOVE, S1, UpfP4Names.DOWNLINK_SESSIONS));
        assertTrue("read over P4Runtime with s1's device_id", readDeviceIds.contains(1L));
        assertEquals(List.of(PiCounterCellId.ofIndirect(UpfP4Names.SESSION_COUNTER,
                                                         record.downlinkCell())), readCells);
        OnosFakes.waitFor("the hold withdrawn", () -> log.contains("withdraw 1"));
        assertEquals(List.of(after), component.placements());
    }

    @Test
    public void aReportOfASwitchAnotherInstanceMastersMovesNothing() throws Exception {
        master = false;
        start(NETCFG);
        OnosFakes.waitFor("the settings", () -> component.settings().enabled());
        sessionOnSlowPath(UE);
        report(S1, UE);
        Thread.sleep(200);
        assertEquals(List.of(), log);
        assertEquals(List.of(), packets.emitted);
        assertEquals(0, placement(UE).orElseThrow().promotions());
    }

    @Test
    public void aReportOfAnotherSwitchOrAUeWithoutASessionMovesNothing() throws Exception {
        start(NETCFG);
        OnosFakes.waitFor("the settings", () -> component.settings().enabled());
        sessionOnSlowPath(UE);
        report(S2, UE);
        report(S1, "10.250.0.99");
        Thread.sleep(200);
        assertEquals(List.of(), log);
        assertEquals(List.of(), packets.emitted);
        assertEquals(List.of(), component.placements());
    }

    @Test
    public void aBadNetcfgSectionLeavesThePlacementOff() throws Exception {
        start("{\"fastDevice\": \"device:s1\", \"slowDevice\": \"device:s2\", \"slowPort\": 3,"
                      + " \"dnPort\": 3}");
        Thread.sleep(200);
        assertEquals(HybridSettings.off(), component.settings());
        assertEquals(List.of(), slowPorts());
    }

    @Test
    public void netcfgNamingASwitchNotYetKnownAppliesWhenItComes() throws Exception {
        devices.available.remove(S1);
        start(NETCFG);
        Thread.sleep(200);
        assertEquals(HybridSettings.off(), component.settings());
        assertEquals(List.of(), slowPorts());
        devices.arrives(S1);
        OnosFakes.waitFor("the slow port on s1", () -> slowPorts().equals(List.of(3L)));
        assertTrue(component.settings().enabled());
        assertEquals(3, component.settings().slowPort().toLong());
    }

    @Test
    public void restSettingsReplaceNetcfgStillWaitingForItsSwitch() throws Exception {
        devices.available.remove(S1);
        start(NETCFG);
        Thread.sleep(200);
        component.configure(HybridSettings.off());
        devices.arrives(S1);
        Thread.sleep(300);
        assertEquals("the operator's off stays", HybridSettings.off(), component.settings());
        assertEquals(List.of(), slowPorts());
    }

    @Test
    public void restSettingsNamingAnUnknownDeviceAreRefusedAndChangeNothing() throws Exception {
        start(null);
        try {
            component.configure(HybridSettings.of(S1, DeviceId.deviceId("device:s9"), 3, 2, 10,
                                                  1000, 100));
            fail("an unknown slow device was taken");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("device:s9"));
        }
        assertEquals(HybridSettings.off(), component.settings());
        assertEquals(List.of(), slowPorts());
        component.configure(HybridSettings.of(S1, S2, 4, 2, 10, 1000, 100));
        assertEquals(List.of(4L), slowPorts());
        component.configure(HybridSettings.off());
        assertEquals("off again: misses dropped", List.of(4L, 0L), slowPorts());
    }

    @Test
    public void theP4RuntimeDeviceIdIsTheManagementAddresssDeviceId() {
        assertEquals(Optional.of(7L), P4RuntimeCounterCells.parseDeviceId("grpc://h:1?device_id=7"));
        assertEquals(Optional.of(3L),
                     P4RuntimeCounterCells.parseDeviceId("grpc://h:1?x=1&device_id=3"));
        assertEquals(Optional.empty(), P4RuntimeCounterCells.parseDeviceId("grpc://h:1"));
        assertEquals(Optional.empty(), P4RuntimeCounterCells.parseDeviceId("grpc://h:1?device_id=x"));
        assertEquals(Optional.empty(), P4RuntimeCounterCells.parseDeviceId(null));
    }
}
