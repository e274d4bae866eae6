/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.app.config.HeavyHitterAppConfig;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.flowbuf.pipeconf.HhP4Names;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.packet.DefaultInboundPacket;
import org.onosproject.net.packet.DefaultOutboundPacket;
import org.onosproject.net.packet.DefaultPacketContext;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.runtime.PiAction;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The heavy-hitter component in ONOS: the netcfg section's settings become
 * hh_settings' default action on each FlowBuf switch this instance
 * masters (not on another pipeconf's), again when a switch comes back,
 * and REST changes reach them all; each switch is asked for packet-in
 * reports, and a report frame reaches the listeners as a digest would.
 */
public class HeavyHitterComponentTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId OTHER = DeviceId.deviceId("device:other");

    private final FakeFlowRules rules = new FakeFlowRules();
    private final FakeDevices devices = new FakeDevices().with(S1, S2, OTHER);
    private final OnosFakes.Packets packets = new OnosFakes.Packets();
    private final HeavyHitterComponent component = new HeavyHitterComponent();

    private void start(String section) {
        FakeNetcfg<ApplicationId, HeavyHitterAppConfig> netcfg = new FakeNetcfg<>(
                ApplicationId.class, HeavyHitterAppConfig.class,
                (app, node) -> FakeNetcfg.config(HeavyHitterAppConfig::new, app,
                                                 HeavyHitterAppConfig.CONFIG_KEY, node));
        if (section != null) {
            netcfg.with(new DefaultApplicationId(7, FlowBufManager.APP_NAME), section);
        }
        component.coreService = OnosFakes.core();
        component.flowRuleService = rules;
        component.deviceService = devices;
        component.mastershipService = OnosFakes.mastership(() -> true);
        component.netcfgRegistry = netcfg;
        // s2 runs the hybrid UPF's fast-path profile: the same program.
        component.pipeconfService = OnosFakes.pipeconfs(
                d -> OTHER.equals(d) ? new PiPipeconfId("org.other")
                        : S2.equals(d) ? FlowBufPipeconfs.UPF_FAST_ID : FlowBufPipeconfs.PIPECONF_ID);
        component.packetService = packets;
        component.activate();
    }

    @After
    public void tearDown() {
        component.deactivate();
        assertEquals(List.of(), devices.listeners);
        assertEquals(List.of(), packets.processors);
    }

    /** The latest settings rule per device: [threshold, idle_us]. */
    private Map<DeviceId, List<Long>> written() {
        Map<DeviceId, List<Long>> latest = new TreeMap<>((a, b) -> a.toString()
                .compareTo(b.toString()));
        for (FlowRule rule : rules.added) {
            if (rule.table().equals(HhP4Names.OBSERVATION)
                    || rule.table().equals(HhP4Names.CPU_REPORT)) {
                continue;  // written with each settings rule: see their tests
            }
            assertEquals(HhP4Names.SETTINGS, rule.table());
            PiAction a = (PiAction) ((PiInstruction) rule.treatment().allInstructions().get(0))
                    .action();
            latest.put(rule.deviceId(), List.of(param(a, HhP4Names.THRESHOLD),
                                                param(a, HhP4Names.IDLE_US)));
        }
        return latest;
    }

    /** The latest observation rule per device: [min_us, min_bytes]. */
    private Map<DeviceId, List<Long>> observations() {
        Map<DeviceId, List<Long>> latest = new TreeMap<>((a, b) -> a.toString()
                .compareTo(b.toString()));
        for (FlowRule rule : rules.added) {
            if (rule.table().equals(HhP4Names.OBSERVATION)) {
                PiAction a = (PiAction) ((PiInstruction) rule.treatment().allInstructions()
                        .get(0)).action();
                assertEquals(HhP4Names.SET_OBSERVATION, a.id());
                latest.put(rule.deviceId(), List.of(param(a, HhP4Names.MIN_US),
                                                    param(a, HhP4Names.MIN_BYTES)));
            }
        }
        return latest;
    }

    private static long param(PiAction action, PiActionParamId id) {
        return new BigInteger(1, action.parameters().stream().filter(p -> p.id().equals(id))
                .findFirst().orElseThrow().value().asArray()).longValue();
    }

    private void waitFor(Map<DeviceId, List<Long>> expected) throws InterruptedException {
        OnosFakes.waitFor("written " + expected, () -> written().equals(expected));
    }

    @Test
    public void theNetcfgSettingsReachEveryFlowBufSwitchAgainWhenOneComesBack() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 10000000, \"packetBytes\": 1250, \"idleMs\": 500}");
        List<Long> on = List.of(8000L, 500_000L);
        waitFor(Map.of(S1, on, S2, on));
        rules.added.clear();
        devices.comesBack(S2);
        waitFor(Map.of(S2, on));
    }

    @Test
    public void newSettingsReachEverySwitchAndAFailureIsUnavailable() throws Exception {
        start(null);
        List<Long> off = List.of(0L, 1_000_000L);
        waitFor(Map.of(S1, off, S2, off));
        HeavyHitterSettings next = HeavyHitterSettings.of(true, 2_000_000, 1500, 1000);
        component.configure(next);
        waitFor(Map.of(S1, List.of(48_000L, 1_000_000L), S2, List.of(48_000L, 1_000_000L)));
        rules.refuse = true;
        try {
            component.configure(HeavyHitterSettings.defaults());
            fail("configured with switches refusing");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("device:s1"));
        }
    }

    @Test
    public void theMinimumObservationIsWrittenWithTheSettings() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 2000000, \"packetBytes\": 1400, "
                      + "\"idleMs\": 500, \"minObserveMs\": 300}");
        waitFor(Map.of(S1, List.of(44_800L, 500_000L), S2, List.of(44_800L, 500_000L)));
        // 300 ms, and 2 Mbit/s for 300 ms: 75,000 bytes.
        assertEquals(Map.of(S1, List.of(300_000L, 75_000L), S2, List.of(300_000L, 75_000L)),
                     observations());
        component.configure(HeavyHitterSettings.of(true, 2_000_000, 1400, 600));
        waitFor(Map.of(S1, List.of(44_800L, 600_000L), S2, List.of(44_800L, 600_000L)));
        assertEquals("none: 0, 0", Map.of(S1, List.of(0L, 0L), S2, List.of(0L, 0L)),
                     observations());
    }

    /** A report frame as hh.p4 sends it: Ethernet 0x88b8, then hh_report_t. */
    private static byte[] reportFrame(String ue, long ewma, long cell) {
        ByteBuffer b = ByteBuffer.allocate(14 + HhP4Names.REPORT_BYTES);
        b.put(new byte[12]).putShort((short) HhP4Names.ETHERTYPE_REPORT);
        b.putInt(Ip4Address.valueOf(ue).toInt()).putInt(Ip4Address.valueOf("10.0.0.9").toInt());
        b.put((byte) 17).putShort((short) 4000).putShort((short) 8080);
        b.putShort((short) (ewma >>> 32)).putInt((int) ewma).putInt((int) cell);
        return b.array();
    }

    private boolean packetIn(DeviceId device, byte[] frame) {
        ConnectPoint from = new ConnectPoint(device, PortNumber.portNumber(2));
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
    public void everySwitchIsAskedForPacketInReportsBeforeTheSettings() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 10000000, \"packetBytes\": 1250, \"idleMs\": 500}");
        waitFor(Map.of(S1, List.of(8000L, 500_000L), S2, List.of(8000L, 500_000L)));
        for (DeviceId d : List.of(S1, S2)) {
            List<FlowRule> mine = rules.added.stream().filter(r -> r.deviceId().equals(d))
                    .collect(Collectors.toList());
            FlowRule first = mine.get(0);
            assertEquals(HhP4Names.CPU_REPORT, first.table());
            PiAction a = (PiAction) ((PiInstruction) first.treatment().allInstructions().get(0))
                    .action();
            assertEquals(HhP4Names.SET_CPU_REPORT, a.id());
            assertEquals(1L, param(a, HhP4Names.ENABLED));
        }
        assertTrue("not on another pipeconf's switch",
                   rules.added.stream().noneMatch(r -> r.deviceId().equals(OTHER)));
    }

    @Test
    public void aPacketInReportReachesTheListenersAndTheHistory() throws Exception {
        start(null);
        LinkedBlockingQueue<HeavyHitter> heard = new LinkedBlockingQueue<>();
        component.addListener(heard::add);
        assertTrue("a report is consumed", packetIn(S1, reportFrame("10.250.0.7", 1L << 40, 513)));
        HeavyHitter got = heard.poll(10, TimeUnit.SECONDS);
        assertNotNull("no report reached the listener", got);
        assertEquals(S1, got.deviceId());
        assertEquals(Ip4Address.valueOf("10.250.0.7"), got.ueAddress());
        assertEquals(Ip4Address.valueOf("10.0.0.9"), got.appAddress());
        assertEquals(17, got.ipProto());
        assertEquals(4000, got.uePort());
        assertEquals(8080, got.appPort());
        assertEquals(1L << 40, got.ewmaEighthsUs());
        assertEquals(513, got.cell());
        assertEquals(List.of(got), component.recent());
        // One byte short, or another ethertype: not a report, left to others.
        byte[] frame = reportFrame("10.250.0.8", 1, 1);
        assertFalse(packetIn(S1, Arrays.copyOf(frame, frame.length - 1)));
        frame[12] = (byte) 0x88;
        frame[13] = (byte) 0xb6;
        assertFalse(packetIn(S1, frame));
        assertEquals(1, component.recent().size());
    }

    @Test
    public void aBadNetcfgSectionLeavesDetectionOff() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 1}");
        assertEquals(HeavyHitterSettings.defaults(), component.settings());
    }
}
