/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.PortRange;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfDirection;
import org.flowbuf.api.upf.UpfFilter;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.pipeconf.UpfP4Names;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The UPF manager against a fake device: checks, allocation, all-or-nothing writes. */
public class UpfManagerTest {

    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.app");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final Ip4Address N3 = Ip4Address.valueOf("10.0.0.100");
    private static final Ip4Address GNB = Ip4Address.valueOf("10.0.0.1");

    private RecordingUpfWriter device;
    private InMemoryUpfStore store;
    private UpfManager upf;

    @Before
    public void setUp() {
        device = new RecordingUpfWriter();
        store = new InMemoryUpfStore();
        upf = new UpfManager(APP, store, device, Set.of(S1, S2)::contains);
        for (DeviceId d : List.of(S1, S2)) {
            upf.addInterface(new UpfInterface(d, UpfInterface.Kind.ACCESS, Ip4Prefix.valueOf("10.0.0.100/32")));
            upf.addInterface(new UpfInterface(d, UpfInterface.Kind.CORE, Ip4Prefix.valueOf("10.250.0.0/16")));
        }
    }

    private static PduSession session(DeviceId d, String ue, long teidUp) {
        return PduSession.builder().deviceId(d).ueAddress(Ip4Address.valueOf(ue)).n3Address(N3)
                .uplinkTeid(teidUp).gnbAddress(GNB).downlinkTeid(teidUp + 1000).qfi(9).build();
    }

    private void assertRefused(Runnable change, FlowBufException.Reason reason, String message) {
        int entries = device.count(S1) + device.count(S2);
        int sessions = upf.sessions().size();
        try {
            change.run();
            fail("accepted; wanted " + message);
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), reason, e.reason());
            assertTrue(e.getMessage() + " should say " + message, e.getMessage().contains(message));
        }
        assertEquals("nothing written", entries, device.count(S1) + device.count(S2));
        assertEquals("nothing stored", sessions, upf.sessions().size());
    }

    @Test
    public void aSessionWritesItsEntriesAndCellsAndItsRemovalTakesThemBack() {
        int base = device.count(S1);
        PduSession s = upf.addSessions(List.of(session(S1, "10.250.0.1", 0x1234).toBuilder()
                .ambr(UpfMeter.of(1000, 1500, 2000, 3000)).build())).get(0);
        assertTrue(s.id() > 0);
        // Sessions both ways, default terminations both ways, one tunnel peer.
        assertEquals(base + 5, device.count(S1));
        for (Object table : List.of(UpfP4Names.UPLINK_SESSIONS, UpfP4Names.DOWNLINK_SESSIONS,
                                    UpfP4Names.UPLINK_TERMINATIONS, UpfP4Names.DOWNLINK_TERMINATIONS,
                                    UpfP4Names.TUNNEL_PEERS)) {
            assertEquals(table.toString(), 1, device.count(S1, table));
        }
        // Slot 1: cells 2 (uplink) and 3 (downlink) of the session meter.
        assertEquals(Set.of(UpfP4Names.SESSION_METER + "[2]", UpfP4Names.SESSION_METER + "[3]"),
                     device.meters.get(S1).keySet());
        assertEquals(Optional.of(s), upf.session(Optional.of(S1), Ip4Address.valueOf("10.250.0.1")));
        upf.removeSession(s.id());
        assertEquals(base, device.count(S1));
        assertTrue(device.meters.get(S1).isEmpty());
        assertTrue(upf.sessions().isEmpty());
    }

    @Test
    public void sessionsOfOneGnodebShareItsTunnelPeerUntilTheLastGoes() {
        List<PduSession> added = upf.addSessions(List.of(session(S1, "10.250.0.1", 1),
                                                         session(S1, "10.250.0.2", 2)));
        assertEquals(1, device.count(S1, UpfP4Names.TUNNEL_PEERS));
        assertEquals(1, device.writes.stream().filter(S1::equals).count() - 2); // one write for both
        upf.removeSession(added.get(0).id());
        assertEquals(1, device.count(S1, UpfP4Names.TUNNEL_PEERS));
        upf.removeSession(added.get(1).id());
        assertEquals(0, device.count(S1, UpfP4Names.TUNNEL_PEERS));
    }

    @Test
    public void badSessionsAreRefusedAndWriteNothing() {
        PduSession first = upf.addSessions(List.of(session(S1, "10.250.0.1", 77))).get(0);
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.250.0.2", 77))),
                      FlowBufException.Reason.CONFLICT,
                      "uplink TEID 77 (0x4d) is already used on N3 address 10.0.0.100 by session "
                              + first.id());
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.250.0.1", 78))),
                      FlowBufException.Reason.CONFLICT, "UE 10.250.0.1 already has session");
        assertRefused(() -> upf.addSessions(List.of(session(DeviceId.deviceId("device:s9"),
                                                            "10.250.0.2", 79))),
                      FlowBufException.Reason.NOT_FOUND, "unknown device device:s9");
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.251.0.2", 79))),
                      FlowBufException.Reason.INVALID, "ueAddress 10.251.0.2 is in no UE pool");
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.250.0.2", 79).toBuilder()
                                                            .n3Address(Ip4Address.valueOf("10.0.0.9"))
                                                            .build())),
                      FlowBufException.Reason.INVALID, "n3Address 10.0.0.9 is not an N3 address");
        // Within one batch too, and the batch is all or nothing.
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.250.0.5", 80),
                                                    session(S1, "10.250.0.6", 80))),
                      FlowBufException.Reason.CONFLICT, "by another session in this request");
        // The same TEID on another device is another tunnel.
        upf.addSessions(List.of(session(S2, "10.250.0.2", 77)));
    }

    @Test
    public void aBatchOverTwoDevicesIsUndoneOnTheFirstWhenTheSecondRefuses() {
        int s1 = device.count(S1);
        device.refuseNext.add(S2);
        assertRefused(() -> upf.addSessions(List.of(session(S1, "10.250.0.1", 1),
                                                    session(S2, "10.250.0.1", 1))),
                      FlowBufException.Reason.UNAVAILABLE, "device:s2 refused");
        assertEquals(s1, device.count(S1));
        assertTrue(upf.sessions().isEmpty());
    }

    @Test
    public void applicationsGetATerminationOnEverySessionBeforeAndAfter() {
        upf.addSessions(List.of(session(S1, "10.250.0.1", 1)));
        UpfApplication web = new UpfApplication(S1, 7, 10, UpfFilter.builder().ipProto(6)
                .appPort(PortRange.of("appPorts", 80, 443)).build(), 5, UpfMeter.of(1, 2, 3, 4));
        upf.addApplication(web);
        assertEquals(1, device.count(S1, UpfP4Names.APPLICATIONS));
        assertEquals(2, device.count(S1, UpfP4Names.UPLINK_TERMINATIONS));
        upf.addSessions(List.of(session(S1, "10.250.0.2", 2)));
        assertEquals(4, device.count(S1, UpfP4Names.DOWNLINK_TERMINATIONS));
        assertEquals(Set.of(UpfP4Names.APP_METER + "[7]"), device.meters.get(S1).keySet());
        assertRefused(() -> upf.addApplication(new UpfApplication(S1, 7, 11, web.filter(), 5, null)),
                      FlowBufException.Reason.CONFLICT, "application 7 exists on device:s1");
        assertRefused(() -> upf.addApplication(new UpfApplication(S1, 8, 10, web.filter(), 5, null)),
                      FlowBufException.Reason.CONFLICT, "same filter and priority");
        upf.removeApplication(S1, 7);
        assertEquals(2, device.count(S1, UpfP4Names.DOWNLINK_TERMINATIONS));
        assertEquals(0, device.count(S1, UpfP4Names.APPLICATIONS));
        assertTrue(device.meters.get(S1).isEmpty());
    }

    @Test
    public void firewallRulesGetIdsAndTheSameKeyTwiceIsRefused() {
        UpfFilter ssh = UpfFilter.builder().ipProto(6).appPort(PortRange.of("appPorts", 22, 22)).build();
        FirewallRule deny = upf.addFirewallRule(new FirewallRule(0, S1, UpfDirection.UPLINK, ssh,
                                                                 FirewallRule.Action.DENY, 10));
        assertTrue(deny.id() > 0);
        assertRefused(() -> upf.addFirewallRule(new FirewallRule(0, S1, UpfDirection.UPLINK, ssh,
                                                                 FirewallRule.Action.ALLOW, 10)),
                      FlowBufException.Reason.CONFLICT, "firewall rule " + deny.id());
        // Another direction or priority is another entry.
        upf.addFirewallRule(new FirewallRule(0, S1, UpfDirection.DOWNLINK, ssh, FirewallRule.Action.DENY, 10));
        upf.addFirewallRule(new FirewallRule(0, S1, UpfDirection.BOTH, UpfFilter.builder().build(),
                                             FirewallRule.Action.DENY, 1));
        assertEquals(3, device.count(S1, UpfP4Names.FIREWALL));
        upf.removeFirewallRule(deny.id());
        assertEquals(2, device.count(S1, UpfP4Names.FIREWALL));
        assertRefused(() -> upf.removeFirewallRule(deny.id()), FlowBufException.Reason.NOT_FOUND,
                      "no firewall rule " + deny.id());
    }

    @Test
    public void interfacesInUseCannotBeRemovedAndOverlapsAreRefused() {
        upf.addSessions(List.of(session(S1, "10.250.0.1", 1)));
        UpfInterface pool = new UpfInterface(S1, UpfInterface.Kind.CORE, Ip4Prefix.valueOf("10.250.0.0/16"));
        assertRefused(() -> upf.removeInterface(pool), FlowBufException.Reason.CONFLICT, "uses");
        assertRefused(() -> upf.addInterface(new UpfInterface(S1, UpfInterface.Kind.CORE,
                                                              Ip4Prefix.valueOf("10.250.3.0/24"))),
                      FlowBufException.Reason.CONFLICT, "overlaps");
        assertRefused(() -> upf.addInterface(new UpfInterface(DeviceId.deviceId("device:s9"),
                                                              UpfInterface.Kind.CORE, pool.prefix())),
                      FlowBufException.Reason.NOT_FOUND, "unknown device");
    }

    @Test
    public void reinstallWritesEverythingAgainAfterTheDeviceLostIt() {
        upf.addSessions(List.of(session(S1, "10.250.0.1", 1), session(S1, "10.250.0.2", 2).toBuilder()
                .ambr(UpfMeter.of(10, 10, 10, 10)).build()));
        upf.addApplication(new UpfApplication(S1, 7, 10, UpfFilter.builder().ipProto(17).build(), 5, null));
        upf.addFirewallRule(new FirewallRule(0, S1, UpfDirection.BOTH, UpfFilter.builder().ipProto(1).build(),
                                             FirewallRule.Action.DENY, 1));
        Map<String, ?> before = Map.copyOf(device.entries.get(S1));
        Map<String, ?> cells = Map.copyOf(device.meters.get(S1));
        device.entries.get(S1).clear();
        device.meters.get(S1).clear();
        assertEquals(before.size() + cells.size(), upf.reinstall(S1));
        assertEquals(before.keySet(), device.entries.get(S1).keySet());
        assertEquals(new ArrayList<>(before.values()).size(), device.entries.get(S1).size());
        assertEquals(cells.keySet(), device.meters.get(S1).keySet());
    }

    @Test
    public void aUesDownlinkIsPausedThroughTheIntentLayerAndResumedIntoThePipeline() {
        List<String> calls = new ArrayList<>();
        FlowFilter toUe = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.250.0.1/32")).build();
        FlowBufIntent paused = new FlowBufIntent(IntentId.intentId(7), FlowBufIntent.Type.PAUSE, S1,
                                                 PortNumber.portNumber(2), toUe.withInPort(PortNumber.portNumber(2)),
                                                 BufferId.bufferId("auto-1"), FlowBufIntent.State.INSTALLED,
                                                 UpfManager.OWNER, null);
        List<FlowBufIntent> installed = new ArrayList<>();
        FlowBufIntentService intents = (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class}, (p, m, a) -> {
                    calls.add(m.getName() + " " + java.util.Arrays.toString(a));
                    if (m.getName().equals("pause")) {
                        installed.add(paused);
                        return paused;
                    }
                    return List.copyOf(installed);
                });
        List<Buffer> held = new ArrayList<>();
        BufferService buffers = (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class}, (p, m, a) -> {
                    if (m.getName().equals("getBuffers")) {
                        return List.copyOf(held);
                    }
                    calls.add(m.getName() + " " + java.util.Arrays.toString(a));
                    return null;
                });
        UpfManager withBuffers = new UpfManager(APP, store, device, Set.of(S1, S2)::contains, intents, buffers);
        PduSession s = withBuffers.addSessions(List.of(session(S1, "10.250.0.1", 1))).get(0);
        assertRefused(() -> withBuffers.resumeDownlink(s.id()), FlowBufException.Reason.NOT_FOUND,
                      "the downlink of UE 10.250.0.1 is not paused");
        withBuffers.addSessions(List.of(session(S1, "10.250.0.2", 2), session(S2, "10.250.0.3", 3)));
        assertEquals(List.of(new UpfDeviceSummary(S1, 2, 0), new UpfDeviceSummary(S2, 1, 0)),
                     withBuffers.deviceSummaries());
        assertEquals(paused, withBuffers.pauseDownlink(s.id(), PortNumber.portNumber(2)));
        // Counted while the pause's buffer holds, on the UE's own device only.
        Buffer auto1 = new Buffer(S1, BufferId.bufferId("auto-1"), UpfManager.OWNER,
                                  BufferSpec.builder().capacityPackets(100).build(),
                                  VportId.vportId("vp100"), VportMode.RX, 3);
        held.add(auto1);
        assertEquals(List.of(new UpfDeviceSummary(S1, 2, 1), new UpfDeviceSummary(S2, 1, 0)),
                     withBuffers.deviceSummaries());
        held.set(0, auto1.withMode(VportMode.RX_TX));
        assertEquals(List.of(new UpfDeviceSummary(S1, 2, 0), new UpfDeviceSummary(S2, 1, 0)),
                     withBuffers.deviceSummaries());
        withBuffers.resumeDownlink(s.id());
        assertEquals(List.of("getIntents []", "getIntents []",
                             "pause [device:s1, 2, " + toUe + ", Optional.empty, org.flowbuf.upf]",
                             "getIntents []", "getIntents []", "getIntents []",
                             "moveBuffer [device:s1, auto-1, org.flowbuf.upf, FORWARDING]"),
                     calls.stream().map(c -> c.replace("null", "[]")).collect(java.util.stream.Collectors.toList()));
        assertRefused(() -> upf.pauseDownlink(s.id(), PortNumber.portNumber(2)),
                      FlowBufException.Reason.UNAVAILABLE, "need the Buffer Service");
        assertRefused(() -> withBuffers.pauseDownlink(999, PortNumber.portNumber(2)),
                      FlowBufException.Reason.NOT_FOUND, "no session 999");
    }

    @Test
    public void aQfiGetsOneQueueEntryThatANewQueueReplaces() {
        upf.setQueue(new UpfQueue(S1, 5, 7));
        upf.setQueue(new UpfQueue(S1, 5, 3));
        assertEquals(1, device.count(S1, UpfP4Names.QUEUES));
        assertEquals(List.of(new UpfQueue(S1, 5, 3)), List.copyOf(upf.queues()));
        assertRefused(() -> upf.setQueue(new UpfQueue(DeviceId.deviceId("device:s9"), 5, 3)),
                      FlowBufException.Reason.NOT_FOUND, "unknown device");
        assertRefused(() -> new UpfQueue(S1, 5, 8), FlowBufException.Reason.INVALID,
                      "queue must be between 0 and 7, got 8");
        upf.removeQueue(S1, 5);
        assertEquals(0, device.count(S1, UpfP4Names.QUEUES));
        assertRefused(() -> upf.removeQueue(S1, 5), FlowBufException.Reason.NOT_FOUND,
                      "QFI 5 has no queue on device:s1");
    }

    @Test
    public void slotsAreReusedAndRunOutWithAClearError() {
        assertEquals(UpfP4Names.INDEX_CELLS / 2 - 1, UpfChecks.MAX_SLOT);
        PduSession a = upf.addSessions(List.of(session(S1, "10.250.0.1", 1))).get(0);
        upf.removeSession(a.id());
        upf.addSessions(List.of(session(S1, "10.250.0.2", 2)));
        assertEquals(1, store.sessions().iterator().next().slot());
    }
}
