/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.Vport;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The merge buffers' calls on the Buffer Service: what an ordered flow gets
 * on its merge switch, how a switch-over is settled (by the marker or by
 * the bound, counted) and re-armed for the new backup, what removal takes
 * back, and what is refused.
 */
public class OrderedMergesTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId S3 = DeviceId.deviceId("device:s3");
    private static final DeviceId S4 = DeviceId.deviceId("device:s4");
    private static final FlowFilter FLOW = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.7.2/32")).ipProto(17).l4DstPort(5000).build();
    // s1 -2-> s2 -2-> s4 (in by 1) and s1 -3-> s3 -2-> s4 (in by 2); h2 on s4/3.
    private static final CcPath UPPER = path(S1, 2, S2, 2, S4, 3);
    private static final CcPath LOWER = path(S1, 3, S3, 2, S4, 3);
    private static final Map<ConnectPoint, ConnectPoint> LINKS = Map.of(
            cp(S2, 2), cp(S4, 1), cp(S3, 2), cp(S4, 2), cp(S1, 2), cp(S2, 1), cp(S1, 3), cp(S3, 1));

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final Set<DeviceId> agents = new java.util.HashSet<>(Set.of(S4));
    private volatile boolean armed;
    private volatile boolean fired;
    private volatile long occupancy;
    /** Runs inside each moveBuffer call: a test's look at the state meanwhile. */
    private volatile Runnable onMove = () -> { };
    private int nextIntent;
    /** What a dead instance left on the merge switch's agent, and its intents. */
    private volatile List<Buffer> onAgent = List.of();
    private volatile List<FlowBufIntent> intentsNow = List.of();
    private OrderedMerges merges = new OrderedMerges(buffers(), intents(),
                                                     out -> Optional.ofNullable(LINKS.get(out)),
                                                     () -> 50);

    @After
    public void stop() {
        merges.close();
    }

    private static ConnectPoint cp(DeviceId d, long port) {
        return new ConnectPoint(d, PortNumber.portNumber(port));
    }

    private static CcPath path(DeviceId a, long pa, DeviceId b, long pb, DeviceId c, long pc) {
        return new CcPath(List.of(new CcHop(a, PortNumber.portNumber(pa)),
                                  new CcHop(b, PortNumber.portNumber(pb)),
                                  new CcHop(c, PortNumber.portNumber(pc))));
    }

    private static CcLayout layout(CcPath primary, CcPath backup) {
        return new CcLayout(7, FLOW, MacAddress.valueOf("00:00:00:00:07:02"), primary, backup, 0,
                            Map.of());
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getDevices":
                            return agents;
                        case "createBuffer":
                            calls.add("create " + args[1] + " " + args[4]);
                            return null;
                        case "getBuffer":
                            return Optional.of(new Buffer(S4, (BufferId) args[1], "o",
                                                          BufferSpec.defaults(),
                                                          VportId.vportId("vp101.3"),
                                                          VportMode.RX, 0));
                        case "getBuffers":
                            return onAgent;
                        case "getVports":
                            return List.of(new Vport(VportId.vportId("vp101.3"), 101, 3, null,
                                                     VportMode.RX));
                        case "armMove":
                            calls.add("arm " + args[1] + " -> " + args[2] + " " + args[4]);
                            armed = true;
                            return null;
                        case "getStatistics":
                            boolean isTrigger = args[1].toString().endsWith("marker");
                            return Optional.of(BufferStatistics.builder()
                                    .occupancy(isTrigger ? 0 : occupancy, 0)
                                    .trigger(isTrigger && armed && !fired, 0, 0).build());
                        case "disarm":
                            calls.add("disarm " + args[1]);
                            armed = false;
                            return fired ? Disarmed.fired(TriggerFire.of(
                                    true, TriggerFire.ReportSync.NONE, 0))
                                    : Disarmed.stillArmed();
                        case "moveBuffer":
                            calls.add("move " + args[1] + " " + args[3]);
                            onMove.run();
                            return null;
                        case "removeBuffer":
                            calls.add("remove " + args[1]);
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("withdraw")) {
                        calls.add("withdraw " + ((IntentId) args[0]).id());
                        return null;
                    }
                    if (method.getName().equals("getIntents")) {
                        return intentsNow;
                    }
                    if (!method.getName().equals("pause")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    int id = ++nextIntent;
                    @SuppressWarnings("unchecked")
                    Optional<BufferId> buffer = (Optional<BufferId>) args[3];
                    calls.add("pause " + args[0] + "/" + args[1] + " " + buffer.orElseThrow());
                    return new FlowBufIntent(IntentId.intentId(id), FlowBufIntent.Type.PAUSE,
                                             (DeviceId) args[0], (PortNumber) args[1],
                                             (FlowFilter) args[2], buffer.get(),
                                             FlowBufIntent.State.INSTALLED, "o", null);
                });
    }

    private OrderedSwitchover awaitDisarmed() throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            OrderedSwitchover s = merges.state(1).orElseThrow();
            if (s.markersSeen() + s.boundExpiries() > 0 && s.armed()) {
                return s;
            }
            Thread.sleep(1);
        }
        fail("not settled and re-armed: " + calls);
        return null;
    }

    @Test
    public void anOrderedFlowGetsATriggerAndAHoldOnItsBackupsPortArmed() {
        CcSink sink = merges.open(1, layout(UPPER, LOWER));
        assertEquals(new CcSink(101, 3), sink);
        assertEquals(List.of("create cc7-marker BUFFERING", "create cc7-hold-2 BUFFERING",
                             "pause device:s4/2 cc7-hold-2",
                             "arm cc7-marker -> cc7-hold-2 FORWARDING"), calls);
        assertEquals(new OrderedSwitchover(S4, 0, 0, true), merges.state(1).orElseThrow());
    }

    @Test
    public void theMarkerReleasesTheHoldAndTheNewBackupsPortIsArmed() throws Exception {
        merges.open(1, layout(UPPER, LOWER));
        calls.clear();
        fired = true;  // the marker came: the agent moved the hold
        merges.switchedOver(1, layout(LOWER, UPPER));
        OrderedSwitchover s = awaitDisarmed();
        assertEquals(new OrderedSwitchover(S4, 1, 0, true), s);
        assertEquals(List.of("disarm cc7-marker", "create cc7-hold-1 BUFFERING",
                             "pause device:s4/1 cc7-hold-1",
                             "arm cc7-marker -> cc7-hold-1 FORWARDING"), calls);
    }

    @Test
    public void withoutTheMarkerTheBoundReleasesTheHoldAndCountsIt() throws Exception {
        merges.open(1, layout(UPPER, LOWER));
        calls.clear();
        merges.switchedOver(1, layout(LOWER, UPPER));
        OrderedSwitchover s = awaitDisarmed();
        assertEquals(new OrderedSwitchover(S4, 0, 1, true), s);
        assertEquals("disarm cc7-marker", calls.get(0));
        assertEquals("move cc7-hold-2 FORWARDING", calls.get(1));
    }

    @Test
    public void whileTheBoundReleasesTheHoldNeitherTheCountNorTheOldArmShows() throws Exception {
        merges.open(1, layout(UPPER, LOWER));
        List<OrderedSwitchover> duringMove = new CopyOnWriteArrayList<>();
        onMove = () -> duringMove.add(merges.state(1).orElseThrow());
        merges.switchedOver(1, layout(LOWER, UPPER));
        awaitDisarmed();
        // A reader that sees the count sees the hold released: before, the count
        // came first and the trigger still showed armed (this test read the
        // count, then found no move yet, once under load).
        assertEquals(new OrderedSwitchover(S4, 0, 0, false), duringMove.get(0));
    }

    @Test
    public void aHoldUsedBeforeHoldsAgainOnceDrained() throws Exception {
        merges.open(1, layout(UPPER, LOWER));
        fired = true;
        merges.switchedOver(1, layout(LOWER, UPPER));
        awaitDisarmed();
        calls.clear();
        // Back to the upper path: the lower's hold (port 2) holds again.
        merges.switchedOver(1, layout(UPPER, LOWER));
        for (int i = 0; i < 2000 && !calls.contains("arm cc7-marker -> cc7-hold-2 FORWARDING");
             i++) {
            Thread.sleep(1);
        }
        assertEquals(List.of("disarm cc7-marker", "move cc7-hold-2 BUFFERING",
                             "arm cc7-marker -> cc7-hold-2 FORWARDING"), calls);
        assertEquals(2, merges.state(1).orElseThrow().markersSeen());
    }

    @Test
    public void aSwitchOverOvertakenByAnotherIsReleasedAtOnceAndTheLatestBackupArmed()
            throws Exception {
        MergeBuffer m = new MergeBuffer(7, FLOW, S4, buffers(), intents());
        m.open(PortNumber.portNumber(2));
        calls.clear();
        // Upper -> lower, then back before the first was settled.
        m.switchedOver(Optional.of(PortNumber.portNumber(1)));
        m.switchedOver(Optional.of(PortNumber.portNumber(2)));
        assertTrue(m.takeSwitchOver());
        long start = System.nanoTime();
        m.settle(0);
        assertTrue("waited for a marker", System.nanoTime() - start < 40_000_000L);
        assertEquals(Optional.of(PortNumber.portNumber(2)), m.latestBackupIn());
        m.arm(m.latestBackupIn().orElseThrow(), 50);
        assertEquals(List.of("disarm cc7-marker", "move cc7-hold-2 FORWARDING",
                             "move cc7-hold-2 BUFFERING",
                             "arm cc7-marker -> cc7-hold-2 FORWARDING"), calls);
        assertEquals(new OrderedSwitchover(S4, 0, 1, true), m.state());
        assertEquals(false, m.takeSwitchOver());
    }

    @Test
    public void removalTakesTheIntentsThenTheBuffersBack() {
        merges.open(1, layout(UPPER, LOWER));
        calls.clear();
        merges.close(1);
        assertEquals(List.of("withdraw 1", "remove cc7-hold-2", "remove cc7-marker"), calls);
        assertTrue(merges.state(1).isEmpty());
    }

    @Test
    public void aMergeSwitchWithoutAnAgentIsRefusedAndNothingIsMade() {
        agents.clear();
        try {
            merges.open(1, layout(UPPER, LOWER));
            fail("no agent at the merge switch was accepted");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("no buffer agent"));
        }
        assertEquals(List.of(), calls);
        assertTrue(merges.state(1).isEmpty());
    }

    @Test
    public void aFailedStepTakesBackWhatWasMade() {
        FlowBufIntentService refusing = (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    throw FlowBufException.conflict("injected");
                });
        merges.close();
        merges = new OrderedMerges(buffers(), refusing,
                                   out -> Optional.ofNullable(LINKS.get(out)), () -> 50);
        try {
            merges.open(1, layout(UPPER, LOWER));
            fail("a refused pause was accepted");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
        }
        assertEquals(List.of("create cc7-marker BUFFERING", "create cc7-hold-2 BUFFERING",
                             "remove cc7-hold-2", "remove cc7-marker"), calls);
        assertTrue(merges.state(1).isEmpty());
    }

    private static Buffer onAgent(String id, VportMode mode) {
        return new Buffer(S4, BufferId.bufferId(id), MergeBuffer.OWNER, BufferSpec.defaults(),
                          VportId.vportId("vp101.3"), mode, 0);
    }

    private static FlowBufIntent pauseOf(long id, long port, String hold) {
        return new FlowBufIntent(IntentId.intentId(id), FlowBufIntent.Type.PAUSE, S4,
                                 PortNumber.portNumber(port), FLOW, BufferId.bufferId(hold),
                                 FlowBufIntent.State.INSTALLED, MergeBuffer.OWNER, null);
    }

    @Test
    public void aNewMasterReleasesAHoldItsDeadInstanceLeftHoldingAndArmsTheBackup()
            throws Exception {
        // Switched over to LOWER (in by 2); the instance died before the
        // marker released LOWER's hold and before it armed UPPER's port.
        onAgent = List.of(onAgent("cc7-marker", VportMode.RX), onAgent("cc7-hold-2", VportMode.RX));
        intentsNow = List.of(pauseOf(11, 2, "cc7-hold-2"));
        nextIntent = 20;
        assertTrue(merges.adopt(1, layout(LOWER, UPPER)));
        assertEquals(new OrderedSwitchover(S4, 0, 1, true), awaitDisarmed());
        assertEquals(List.of("disarm cc7-marker", "move cc7-hold-2 FORWARDING",
                             "create cc7-hold-1 BUFFERING", "pause device:s4/1 cc7-hold-1",
                             "arm cc7-marker -> cc7-hold-1 FORWARDING"), calls);
        // Run here now: not taken over twice; its removal takes the dead
        // instance's pause back too.
        assertEquals(false, merges.adopt(1, layout(LOWER, UPPER)));
        calls.clear();
        merges.close(1);
        assertTrue(calls.toString(), calls.containsAll(List.of("withdraw 11", "withdraw 21")));
    }

    @Test
    public void aNewMasterRearmsTheBackupOfAFlowItsDeadInstanceLeftArmed() throws Exception {
        onAgent = List.of(onAgent("cc7-marker", VportMode.RX), onAgent("cc7-hold-1", VportMode.TX),
                          onAgent("cc7-hold-2", VportMode.RX));
        intentsNow = List.of(pauseOf(11, 2, "cc7-hold-2"), pauseOf(12, 1, "cc7-hold-1"));
        assertTrue(merges.adopt(1, layout(UPPER, LOWER)));
        for (int i = 0; i < 2000 && !merges.state(1).orElseThrow().armed(); i++) {
            Thread.sleep(1);
        }
        assertEquals(new OrderedSwitchover(S4, 0, 0, true), merges.state(1).orElseThrow());
        assertEquals(List.of("disarm cc7-marker", "move cc7-hold-2 BUFFERING",
                             "arm cc7-marker -> cc7-hold-2 FORWARDING"), calls);
    }
}
