/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.app.store.ClusterStorage;
import org.junit.After;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.Set;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.flowbuf.app.apps.mobility.LmmManagerTest.DOWNLINK;
import static org.flowbuf.app.apps.mobility.LmmManagerTest.cp;
import static org.flowbuf.app.apps.mobility.LmmManagerTest.plan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * LMM handoffs in a cluster whose instance dies mid-handoff: the new master
 * of the plan's source device adopts them from the cluster's storage and the
 * Buffer Service's state, so that the UE's downlink is not held forever; an
 * instance that is not the master, or whose handoff's runner still lives,
 * adopts nothing.
 */
public class LmmTakeoverTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    private final ClusterStorage storage = new ClusterStorage();
    private final SharedBuffers cluster = new SharedBuffers(DOWNLINK);
    /** Who masters s1 now, and which instances died. */
    private final FakeRunnerCluster nodes = new FakeRunnerCluster(S1, "onos-1");
    private final LmmManager first = instance("onos-1", LmmManager.MARKER_TIMEOUT_MS);
    private LmmManager second = instance("onos-2", LmmManager.MARKER_TIMEOUT_MS);

    @After
    public void stop() {
        first.deactivate();
        second.deactivate();
    }

    private LmmManager instance(String node, long markerTimeoutMs) {
        RunnerCluster view = nodes.viewOf(node);
        return new LmmManager(cluster.intents(), cluster.buffers(), controller(), NoWrites.RULES,
                              cluster.packets(), markerTimeoutMs, new DistributedLmmStore(storage),
                              view);
    }

    // The controller-buffering baseline: its holds live in the instance's memory.
    private static ControllerBufferingService controller() {
        return (ControllerBufferingService) Proxy.newProxyInstance(
                LmmTakeoverTest.class.getClassLoader(),
                new Class<?>[]{ControllerBufferingService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("hold")) {
                        return new ControllerHold(1, (DeviceId) args[0], (PortNumber) args[1],
                                                  DOWNLINK, ControllerHold.State.HOLDING,
                                                  0, 0, 0, 0, 0);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    // onos-1 dies: its runs go with it (watches closed), s1's mastership moves to onos-2.
    private void firstDies() {
        first.deactivate();
        nodes.kill("onos-1");
        nodes.master("onos-2");
    }

    private LmmHandoff awaitState(LmmManager lmm, long id, LmmHandoff.State state)
            throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            LmmHandoff h = lmm.handoff(id).orElseThrow();
            if (h.state() == state) {
                return h;
            }
            Thread.sleep(10);
        }
        fail("handoff " + id + " never reached " + state + ": " + lmm.handoff(id));
        return null;
    }

    // The handoff's end: the downlink lives in the new path's buffer, released
    // to the UE; the old path's buffers and intents are gone; nothing is held.
    private void assertOnlyTheNewPathIsLeft(long id) {
        assertEquals(0, cluster.held());
        assertEquals(Set.of("device:s2/lmm-" + id + "-new"), cluster.bufferNames());
        assertEquals(Set.of("PAUSE device:s2/1 lmm-" + id + "-new",
                            "RESUME device:s2/2 lmm-" + id + "-new"), cluster.intentNames());
    }

    @Test
    public void theNewMasterCompletesAnAttachedHandoffWhoseInstanceDied()
            throws InterruptedException {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        cluster.arrive("device:s2", "lmm-1-new", 40);
        // The UE's downlink on the new path waits behind the marker the dead
        // instance watched: without a takeover it is held forever.
        firstDies();
        cluster.markersArrive();
        assertEquals(40, cluster.held());
        assertEquals(LmmHandoff.State.ATTACHED, second.handoff(h.id()).orElseThrow().state());

        assertEquals(1, second.takeOver(S1));
        assertEquals("the new master sends the end marker again", 2, cluster.markersSent());
        LmmHandoff adopted = second.handoff(h.id()).orElseThrow();
        assertEquals(LmmHandoff.State.ATTACHED, adopted.state());
        assertEquals(0, adopted.markerReports());
        assertEquals(40, cluster.held());

        cluster.markersArrive();
        LmmHandoff done = awaitState(second, h.id(), LmmHandoff.State.COMPLETED);
        assertEquals(2, done.markerReports());
        assertOnlyTheNewPathIsLeft(h.id());
        // It knows where the downlink lives now: the next handoff reuses that buffer.
        LmmHandoff back = second.start(plan("device:s2", "device:s1"));
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")), back.sourceBuffer());
    }

    @Test
    public void anAdoptedHandoffWhoseMarkerNeverComesIsReleasedAndSaysSo()
            throws InterruptedException {
        second.deactivate();
        second = instance("onos-2", 100);
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        cluster.arrive("device:s2", "lmm-1-new", 7);
        firstDies();
        assertEquals(1, second.takeOver(S1));
        LmmHandoff failed = awaitState(second, h.id(), LmmHandoff.State.FAILED);
        assertTrue(failed.failure().orElseThrow(),
                   failed.failure().orElseThrow().contains("0 of 2"));
        assertOnlyTheNewPathIsLeft(h.id());
    }

    @Test
    public void aDetachedHandoffWhoseInstanceDiedIsAttachedThroughTheNewMaster()
            throws InterruptedException {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        cluster.arrive("device:s2", "lmm-1-fwd", 5);
        cluster.arrive("device:s2", "lmm-1-new", 9);
        firstDies();
        // Before the takeover, the attach finds no run on this instance, and says whose it is.
        try {
            second.attach(h.id());
            fail("no run here before the takeover");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("instance onos-1"));
        }

        assertEquals(1, second.takeOver(S1));
        assertEquals(LmmHandoff.State.DETACHED, second.handoff(h.id()).orElseThrow().state());
        assertEquals(0, cluster.markersSent());
        assertEquals(14, cluster.held());

        assertEquals(LmmHandoff.State.ATTACHED, second.attach(h.id()).state());
        assertEquals(9, cluster.held());
        cluster.markersArrive();
        awaitState(second, h.id(), LmmHandoff.State.COMPLETED);
        assertOnlyTheNewPathIsLeft(h.id());
    }

    @Test
    public void anInstanceThatIsNotTheSourcesMasterAdoptsNothing() {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.deactivate();
        nodes.kill("onos-1");
        nodes.master("onos-3");
        Set<String> intents = cluster.intentNames();

        assertEquals(0, second.takeOver(S1));
        assertReason(() -> second.attach(h.id()), FlowBufException.Reason.UNAVAILABLE);
        assertEquals(intents, cluster.intentNames());
        assertEquals(LmmHandoff.State.DETACHED, second.handoff(h.id()).orElseThrow().state());
    }

    @Test
    public void aRunWhoseInstanceLivesIsNotAdoptedTwice() throws InterruptedException {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        // Its own instance, master again, keeps its one run: no second marker.
        assertEquals(0, first.takeOver(S1));
        // Mastership moved (a rebalance) but onos-1 lives: it keeps its run.
        nodes.master("onos-2");
        assertEquals(0, second.takeOver(S1));
        assertEquals(1, cluster.markersSent());

        cluster.markersArrive();
        awaitState(first, h.id(), LmmHandoff.State.COMPLETED);
        assertOnlyTheNewPathIsLeft(h.id());
        // A completed handoff is not under way: nothing to adopt once onos-1 dies.
        firstDies();
        assertEquals(0, second.takeOver(S1));
    }

    @Test
    public void anAdoptedRunIsAdoptedOnce() throws InterruptedException {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        firstDies();
        assertEquals(1, second.takeOver(S1));
        assertEquals(0, second.takeOver(S1));
        assertEquals(2, cluster.markersSent());
        cluster.markersArrive();
        awaitState(second, h.id(), LmmHandoff.State.COMPLETED);
        assertOnlyTheNewPathIsLeft(h.id());
    }

    @Test
    public void aControllerBufferedHandoffWhoseInstanceDiedFailsAndSaysWhy() {
        HandoffPlan plan = HandoffPlan.builder().downlink(DOWNLINK)
                .buffering(HandoffPlan.Buffering.CONTROLLER)
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2")).build();
        LmmHandoff h = first.start(plan);
        firstDies();
        assertEquals(1, second.takeOver(S1));
        LmmHandoff failed = second.handoff(h.id()).orElseThrow();
        assertEquals(LmmHandoff.State.FAILED, failed.state());
        assertTrue(failed.failure().orElseThrow(),
                   failed.failure().orElseThrow().contains("onos-1"));
        // Not under way any more: a new handoff of the UE may start.
        assertEquals(0, second.takeOver(S1));
    }

    @Test
    public void theNewMasterWatchesAgainUntilTheAgentTakesItsCalls() throws InterruptedException {
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        cluster.arrive("device:s2", "lmm-1-new", 3);
        firstDies();
        cluster.refuseWatches(3);
        assertEquals(1, second.takeOver(S1));
        assertEquals("no marker before both buffers are watched", 1, cluster.markersSent());
        for (int i = 0; i < 300 && cluster.markersSent() < 2; i++) {
            Thread.sleep(10);
        }
        assertEquals(2, cluster.markersSent());
        cluster.markersArrive();
        assertEquals(2, awaitState(second, h.id(), LmmHandoff.State.COMPLETED).markerReports());
        assertOnlyTheNewPathIsLeft(h.id());
    }

    @Test
    public void buffersNeverWatchedAgainStillReleaseTheNewPathAndSaySo()
            throws InterruptedException {
        second.deactivate();
        second = instance("onos-2", 300);
        LmmHandoff h = first.start(plan("device:s1", "device:s2"));
        first.attach(h.id());
        cluster.arrive("device:s2", "lmm-1-new", 3);
        firstDies();
        cluster.refuseWatches(Integer.MAX_VALUE);
        assertEquals(1, second.takeOver(S1));
        LmmHandoff failed = awaitState(second, h.id(), LmmHandoff.State.FAILED);
        assertTrue(failed.failure().orElseThrow(),
                   failed.failure().orElseThrow().contains("not watched again"));
        assertEquals(1, cluster.markersSent());
        assertOnlyTheNewPathIsLeft(h.id());
    }
}
