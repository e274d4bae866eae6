/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.LmmService;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.store.ClusterStorage;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The handoff's calls on the Buffer Service, in order: what it holds, when
 * it releases (only after every eNB reported the end marker), what it reuses,
 * what it undoes, and what it refuses.
 */
public class LmmManagerTest {

    static final FlowFilter DOWNLINK = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build();

    /** The eNBs with a buffer agent. */
    private static final Set<DeviceId> AGENT_DEVICES = Set.of(DeviceId.deviceId("device:s1"),
                                                              DeviceId.deviceId("device:s2"));
    /** The lab's network: the anchor and both eNBs, with ports 1 to 3. */
    private static final PlanCheck.Network NETWORK = new PlanCheck.Network() {
        @Override
        public boolean hasDevice(DeviceId device) {
            return Set.of("device:sa", "device:s1", "device:s2").contains(device.toString());
        }

        @Override
        public boolean hasPort(ConnectPoint port) {
            return port.port().toLong() >= 1 && port.port().toLong() <= 3;
        }
    };

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<Runnable> markerCallbacks = Collections.synchronizedList(new ArrayList<>());
    private final List<byte[]> frames = new ArrayList<>();
    private String failOn;
    private int nextIntent;
    private LmmManager lmm = manager(LmmManager.MARKER_TIMEOUT_MS);

    @After
    public void stop() {
        lmm.deactivate();
    }

    private LmmManager manager(long markerTimeoutMs) {
        return manager(markerTimeoutMs, new InMemoryLmmStore());
    }

    private LmmManager manager(long markerTimeoutMs, LmmStore store) {
        return new LmmManager(intents(), buffers(), controllerBuffering(), anchorRules(),
                              (device, port, frame) -> {
                                  record("packet-out " + device + "/" + port);
                                  frames.add(frame);
                              }, markerTimeoutMs, store);
    }

    static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    /** A buffered handoff of DOWNLINK from source to target, anchored at device:sa. */
    static HandoffPlan plan(String source, String target) {
        int toSource = source.equals("device:s1") ? 2 : 3;
        return HandoffPlan.builder().downlink(DOWNLINK)
                .anchor(cp("device:sa/1"), cp("device:sa/" + toSource),
                        cp("device:sa/" + (5 - toSource)))
                .source(cp(source + "/1"), cp(source + "/3"))
                .target(cp(target + "/1"), cp(target + "/3"), cp(target + "/2"))
                .build();
    }

    private void record(String call) {
        calls.add(call);
        if (failOn != null && call.equals(failOn)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, "injected: " + call);
        }
    }

    private FlowBufIntentService intents() {
        return RecordingIntents.of(this::record, () -> ++nextIntent, LmmService.OWNER, DOWNLINK);
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "createBuffer":
                            record("create " + args[0] + " " + args[1]);
                            return null;
                        case "removeBuffer":
                            record("remove " + args[0] + " " + args[1]);
                            return null;
                        case "getBuffer":
                            return Optional.empty();
                        case "getDevices":
                            return AGENT_DEVICES;
                        case "watchMarker":
                            record("watch " + args[0] + " " + args[1]);
                            markerCallbacks.add((Runnable) args[4]);
                            return (MarkerWatch) () -> calls.add("unwatch " + args[1]);
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private ControllerBufferingService controllerBuffering() {
        return (ControllerBufferingService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{ControllerBufferingService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "hold":
                            int id = ++nextIntent;
                            record("hold " + args[0] + "/" + args[1] + " #" + id);
                            return new ControllerHold(id, (DeviceId) args[0], (PortNumber) args[1],
                                                      DOWNLINK, ControllerHold.State.HOLDING,
                                                      0, 0, 0, 0, 0);
                        case "release":
                            record("release #" + args[0] + " to " + args[1]);
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private static HandoffPlan controllerPlan() {
        return HandoffPlan.builder().downlink(DOWNLINK)
                .buffering(HandoffPlan.Buffering.CONTROLLER)
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2")).build();
    }

    private SteeringRuleWriter anchorRules() {
        return new SteeringRuleWriter() {
            @Override
            public void install(DeviceId deviceId, SteeringRule rule) {
                record("anchor install " + rule.ingressPort().orElseThrow() + "->"
                               + rule.outPort());
            }

            @Override
            public void modify(DeviceId deviceId, SteeringRule rule) {
                record("anchor modify " + rule.ingressPort().orElseThrow() + "->"
                               + rule.outPort());
            }

            @Override
            public void remove(DeviceId deviceId, SteeringRule rule) {
                record("anchor remove " + rule.ingressPort().orElseThrow() + "->"
                               + rule.outPort());
            }
        };
    }

    private LmmHandoff awaitState(long id, LmmHandoff.State state) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            LmmHandoff h = lmm.handoff(id).orElseThrow();
            if (h.state() == state) {
                return h;
            }
            Thread.sleep(10);
        }
        fail("handoff " + id + " never reached " + state + ": " + lmm.handoff(id));
        return null;
    }

    private List<String> callsSince(int from) {
        synchronized (calls) {
            return new ArrayList<>(calls.subList(from, calls.size()));
        }
    }

    @Test
    public void aHandoffHoldsForwardsAndReleasesTheNewPathOnlyAfterBothMarkerReports()
            throws InterruptedException {
        LmmHandoff h = lmm.start(plan("device:s1", "device:s2"));
        assertEquals(LmmHandoff.State.DETACHED, h.state());
        assertEquals(List.of("create device:s1 lmm-1-src",
                             "pause device:s1/1 lmm-1-src #1",
                             "create device:s2 lmm-1-fwd",
                             "pause device:s2/3 lmm-1-fwd #2",
                             "create device:s2 lmm-1-new",
                             "pause device:s2/1 lmm-1-new #3",
                             "anchor install 1->3",
                             "resume device:s1/3 lmm-1-src #4"), callsSince(0));

        int mark = calls.size();
        assertEquals(LmmHandoff.State.ATTACHED, lmm.attach(h.id()).state());
        assertEquals(List.of("watch device:s1 lmm-1-src",
                             "watch device:s2 lmm-1-fwd",
                             "resume device:s2/2 lmm-1-fwd #5",
                             "packet-out device:sa/2"), callsSince(mark));
        assertTrue("the injected frame is the end marker",
                   EndMarker.PATTERN.matches(frames.get(0)));

        mark = calls.size();
        markerCallbacks.get(0).run();
        Thread.sleep(100);
        assertEquals(1, lmm.handoff(h.id()).orElseThrow().markerReports());
        assertEquals("one report is not enough to release the new path",
                     List.of(), callsSince(mark));

        markerCallbacks.get(1).run();
        assertEquals(2, awaitState(h.id(), LmmHandoff.State.COMPLETED).markerReports());
        assertEquals(List.of("resume device:s2/2 lmm-1-new #6",
                             "unwatch lmm-1-src", "unwatch lmm-1-fwd",
                             "withdraw 1", "withdraw 4", "remove device:s1 lmm-1-src",
                             "withdraw 2", "withdraw 5", "remove device:s2 lmm-1-fwd"),
                     callsSince(mark));
    }

    @Test
    public void theNextHandoffReusesTheBufferTheDownlinkLivesInAndModifiesTheAnchorRule()
            throws InterruptedException {
        LmmHandoff first = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(first.id());
        markerCallbacks.forEach(Runnable::run);
        awaitState(first.id(), LmmHandoff.State.COMPLETED);

        int mark = calls.size();
        LmmHandoff back = lmm.start(plan("device:s2", "device:s1"));
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")), back.sourceBuffer());
        List<String> steps = callsSince(mark);
        assertEquals("pause device:s2/1 lmm-1-new #7", steps.get(0));
        assertEquals("withdraw 6", steps.get(1));
        assertTrue(steps.toString(), steps.contains("anchor modify 1->2"));
        assertFalse(steps.toString(), steps.stream().anyMatch(s -> s.startsWith("create device:s2")));
    }

    @Test
    public void anotherInstanceOnTheClusterStorageTakesOverWhereTheDownlinkLives()
            throws InterruptedException {
        ClusterStorage cluster = new ClusterStorage();
        lmm.deactivate();
        lmm = manager(LmmManager.MARKER_TIMEOUT_MS, new DistributedLmmStore(cluster));
        LmmHandoff first = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(first.id());
        markerCallbacks.forEach(Runnable::run);
        awaitState(first.id(), LmmHandoff.State.COMPLETED);
        // The instance that ran it dies; another one of the cluster acts now.
        lmm.deactivate();
        lmm = manager(LmmManager.MARKER_TIMEOUT_MS, new DistributedLmmStore(cluster));
        assertEquals(LmmHandoff.State.COMPLETED, lmm.handoff(first.id()).orElseThrow().state());
        // It knows the downlink lives in s2's buffer: a handoff from s1 is wrong,
        // the one from s2 reuses the buffer, under a new id.
        expect(FlowBufException.Reason.CONFLICT, () -> lmm.start(plan("device:s1", "device:s2")));
        LmmHandoff back = lmm.start(plan("device:s2", "device:s1"));
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")), back.sourceBuffer());
        assertTrue(back.id() != first.id());
    }

    @Test
    public void anotherInstanceRefusesToAttachAHandoffItDoesNotRunAndChangesNothing()
            throws InterruptedException {
        // Found under a cluster: the attach reached an instance without the
        // handoff's run (its marker watches are the starter's) and failed
        // with a NullPointerException (a 500). Now a reason, and nothing changes.
        ClusterStorage cluster = new ClusterStorage();
        lmm.deactivate();
        lmm = manager(LmmManager.MARKER_TIMEOUT_MS, new DistributedLmmStore(cluster));
        LmmManager other = manager(LmmManager.MARKER_TIMEOUT_MS, new DistributedLmmStore(cluster));
        try {
            LmmHandoff h = lmm.start(plan("device:s1", "device:s2"));
            int mark = calls.size();
            try {
                other.attach(h.id());
                fail("an instance without the handoff's run must refuse to attach it");
            } catch (FlowBufException e) {
                assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
                assertTrue(e.getMessage(), e.getMessage().contains("device:s1"));
            }
            assertEquals(List.of(), callsSince(mark));
            assertEquals(LmmHandoff.State.DETACHED, other.handoff(h.id()).orElseThrow().state());
            // The instance that runs it attaches it as before.
            lmm.attach(h.id());
            markerCallbacks.forEach(Runnable::run);
            awaitState(h.id(), LmmHandoff.State.COMPLETED);
        } finally {
            other.deactivate();
        }
    }

    @Test
    public void aPlanWhoseSourceIsNotWhereTheDownlinkLivesIsRefusedAndChangesNothing()
            throws InterruptedException {
        LmmHandoff first = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(first.id());
        markerCallbacks.forEach(Runnable::run);
        awaitState(first.id(), LmmHandoff.State.COMPLETED);
        int mark = calls.size();
        // The downlink lives at s2 now; a second s1 -> s2 handoff is wrong.
        expect(FlowBufException.Reason.CONFLICT, () -> lmm.start(plan("device:s1", "device:s2")));
        assertEquals(List.of(), callsSince(mark));
        // The failed attempt kept the resident: the right handoff still reuses it.
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")),
                     lmm.start(plan("device:s2", "device:s1")).sourceBuffer());
    }

    @Test
    public void aFailedStepUndoesTheEarlierOnesAndTheHandoffCanBeRetried() {
        failOn = "create device:s2 lmm-1-new";
        try {
            lmm.start(plan("device:s1", "device:s2"));
            fail("the injected failure was swallowed");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        List<String> undo = callsSince(calls.indexOf(failOn) + 1);
        assertEquals("undone newest first",
                     List.of("withdraw 2", "remove device:s2 lmm-1-fwd",
                             "withdraw 1", "remove device:s1 lmm-1-src"), undo);
        assertFalse(undo.toString(), calls.stream().anyMatch(s -> s.startsWith("anchor")));
        assertTrue(lmm.handoffs().isEmpty());
        failOn = null;
        assertEquals(LmmHandoff.State.DETACHED,
                     lmm.start(plan("device:s1", "device:s2")).state());
    }

    @Test
    public void aMarkerThatNeverArrivesStillReleasesTheNewPathAndSaysSo()
            throws InterruptedException {
        lmm.deactivate();
        lmm = manager(100);
        LmmHandoff h = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(h.id());
        markerCallbacks.get(0).run();
        LmmHandoff failed = awaitState(h.id(), LmmHandoff.State.FAILED);
        assertTrue(failed.failure().orElseThrow(),
                   failed.failure().orElseThrow().contains("1 of 2"));
        assertTrue(calls.toString(), calls.contains("resume device:s2/2 lmm-1-new #6"));
    }

    @Test
    public void aBufferReportsTheMarkerOnceEvenWhenItSeesTwo() throws InterruptedException {
        // A taken-over handoff sends a second marker: the source seeing both
        // says nothing of the forwarded buffer, which must report too.
        lmm.deactivate();
        lmm = manager(200);
        LmmHandoff h = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(h.id());
        markerCallbacks.get(0).run();
        markerCallbacks.get(0).run();
        LmmHandoff failed = awaitState(h.id(), LmmHandoff.State.FAILED);
        assertEquals(1, failed.markerReports());
    }

    @Test
    public void theNoBufferingBaselineOnlySwitchesTheAnchor() {
        HandoffPlan baseline = HandoffPlan.builder().downlink(DOWNLINK).buffered(false)
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2")).build();
        LmmHandoff h = lmm.start(baseline);
        assertEquals(Optional.empty(), h.sourceBuffer());
        assertEquals(LmmHandoff.State.COMPLETED, lmm.attach(h.id()).state());
        assertEquals(List.of("anchor install 1->3"), calls);
    }

    @Test
    public void theControllerBufferingBaselinePuntsAtBothENodeBsAndReplaysOldPacketsFirst() {
        LmmHandoff h = lmm.start(controllerPlan());
        assertEquals(Optional.empty(), h.sourceBuffer());
        // The target punts before the anchor switches to it: nothing passes to the absent UE.
        assertEquals(List.of("hold device:s2/1 #1", "anchor install 1->3",
                             "hold device:s1/1 #2"), calls);
        int mark = calls.size();
        assertEquals(LmmHandoff.State.COMPLETED, lmm.attach(h.id()).state());
        assertEquals(List.of("release #2 to device:s2/2", "release #1 to device:s2/2"),
                     callsSince(mark));
    }

    @Test
    public void aFailedControllerHoldUndoesTheAnchorAndReleasesTheOtherHold() {
        failOn = "hold device:s1/1 #2";
        expect(FlowBufException.Reason.UNAVAILABLE, () -> lmm.start(controllerPlan()));
        assertEquals(List.of("hold device:s2/1 #1", "anchor install 1->3",
                             "hold device:s1/1 #2", "anchor remove 1->3",
                             "release #1 to device:s2/2"), calls);
        assertTrue(lmm.handoffs().isEmpty());
    }

    @Test
    public void onlyTheLatestCompletedHandoffsAreListedAndAFailedOneIsKept() {
        failOn = "release #2 to device:s2/2";
        LmmHandoff failed = lmm.start(controllerPlan());
        assertEquals(LmmHandoff.State.FAILED, lmm.attach(failed.id()).state());
        failOn = null;
        long first = lmm.attach(lmm.start(controllerPlan()).id()).id();
        for (int i = 1; i <= Retention.DEFAULT_KEPT; i++) {
            calls.clear();
            lmm.attach(lmm.start(controllerPlan()).id());
        }
        assertEquals(Retention.DEFAULT_KEPT + 1, lmm.handoffs().size());
        assertTrue(lmm.handoff(first).isEmpty());
        assertEquals(LmmHandoff.State.FAILED, lmm.handoff(failed.id()).orElseThrow().state());
    }

    @Test
    public void refusals() {
        expect(FlowBufException.Reason.NOT_FOUND, () -> lmm.attach(42));
        LmmHandoff h = lmm.start(plan("device:s1", "device:s2"));
        expect(FlowBufException.Reason.CONFLICT, () -> lmm.start(plan("device:s1", "device:s2")));
        lmm.attach(h.id());
        expect(FlowBufException.Reason.CONFLICT, () -> lmm.attach(h.id()));
        expect(FlowBufException.Reason.INVALID, () -> HandoffPlan.builder()
                .downlink(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.0/24")).build())
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2")).build());
        expect(FlowBufException.Reason.INVALID, () -> plan("device:s1", "device:s1"));
    }

    @Test
    public void aPlanNamingAnUnknownDeviceOrPortIsRefusedBeforeAnyStep()
            throws InterruptedException {
        lmm.deactivate();
        lmm = new LmmManager(intents(), buffers(), controllerBuffering(), anchorRules(),
                             (device, port, frame) -> record("packet-out"), NETWORK);
        LmmHandoff first = lmm.start(plan("device:s1", "device:s2"));
        lmm.attach(first.id());
        markerCallbacks.forEach(Runnable::run);
        awaitState(first.id(), LmmHandoff.State.COMPLETED);
        int mark = calls.size();
        // Live under ONOS, a target naming device:s9 was refused only after
        // the UE's resident buffer had been paused again (its undo resumed
        // it under a new intent), and one naming a port s2 lacks started.
        HandoffPlan toS9 = HandoffPlan.builder().downlink(DOWNLINK)
                .anchor(cp("device:sa/1"), cp("device:sa/3"), cp("device:sa/2"))
                .source(cp("device:s2/1"), cp("device:s2/3"))
                .target(cp("device:s9/1"), cp("device:s9/3"), cp("device:s9/2")).build();
        assertRefused(toS9, "target.in: unknown device device:s9");
        HandoffPlan toPort99 = HandoffPlan.builder().downlink(DOWNLINK)
                .anchor(cp("device:sa/1"), cp("device:sa/3"), cp("device:sa/2"))
                .source(cp("device:s2/1"), cp("device:s2/3"))
                .target(cp("device:s1/1"), cp("device:s1/3"), cp("device:s1/99")).build();
        assertRefused(toPort99, "target.ue: device:s1 has no port 99");
        assertEquals(List.of(), callsSince(mark));
        assertEquals(1, lmm.handoffs().size());
        // The resident is untouched: the right handoff still reuses it.
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")),
                     lmm.start(plan("device:s2", "device:s1")).sourceBuffer());
    }

    @Test
    public void aFlowBufHandoffToAnEnbWithoutABufferAgentIsRefusedBeforeAnyStep() {
        assertRefused(plan("device:s1", "device:s3"),
                      "device:s3 has no buffer agent: a FlowBuf handoff buffers at both eNBs");
        assertEquals(List.of(), calls);
        // The baselines buffer in no agent: the same eNB is fine for them.
        HandoffPlan none = HandoffPlan.builder().downlink(DOWNLINK)
                .buffering(HandoffPlan.Buffering.NONE)
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s3/1"), cp("device:s3/3"), cp("device:s3/2")).build();
        assertEquals(LmmHandoff.State.DETACHED, lmm.start(none).state());
    }

    private void assertRefused(HandoffPlan plan, String message) {
        try {
            lmm.start(plan);
            fail("accepted: " + plan);
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
            assertEquals(message, e.getMessage());
        }
    }

    private static void expect(FlowBufException.Reason reason, Runnable call) {
        assertReason(call, reason);
    }
}
