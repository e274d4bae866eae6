/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.app.store.ClusterStorage;
import org.flowbuf.app.store.DistributedIdRecords;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;

/**
 * FMM sessions in a cluster whose instance dies: the new master of the
 * plan's anchor adopts its open sessions from the cluster's storage and the
 * Buffer Service's intents, so that a UE detached mid-handoff is attached
 * (its target delivers) and the session can be closed, leaving nothing; an
 * instance that is not the anchor's master, or whose session's runner still
 * lives, adopts nothing.
 */
public class FmmTakeoverTest {

    private static final FlowFilter DOWNLINK = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.20/32")).build();
    private static final DeviceId ANCHOR = DeviceId.deviceId("device:sa");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    private final ClusterStorage storage = new ClusterStorage();
    private final SharedBuffers cluster = new SharedBuffers(DOWNLINK);
    /** Who masters the anchor now, and which instances died. */
    private final FakeRunnerCluster nodes = new FakeRunnerCluster(ANCHOR, "onos-1");
    private final FmmManager first = instance("onos-1");
    private final FmmManager second = instance("onos-2");

    @After
    public void stop() {
        first.deactivate();
        second.deactivate();
    }

    private FmmManager instance(String node) {
        RunnerCluster view = nodes.viewOf(node);
        return new FmmManager(cluster.intents(), cluster.buffers(), NoWrites.RULES, NoWrites.GROUPS,
                              Executors.newSingleThreadExecutor(),
                              new DistributedIdRecords<>(storage, FmmManager.SESSIONS,
                                                         FmmSessionSerializer.SERIALIZER),
                              new DistributedIdRecords<>(storage, FmmManager.RUNNERS,
                                                         FmmSessionSerializer.RUNNERS_SERIALIZER),
                              view);
    }

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static FmmPlan plan() {
        return new FmmPlan(DOWNLINK, cp("device:sa/1"), List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp("device:s2/1"), cp("device:s2/2"))),
                           S1, 1024);
    }

    // The UE signals its attach and detach (UDP to port 9) and reports what it received.
    private static FmmPlan planWithReports() {
        FmmPlan p = plan();
        return new FmmPlan(p.downlink(), p.anchorIn(), p.cells(), S1, p.windowPackets(),
                           Optional.of(FlowFilter.builder().ipProto(17).l4DstPort(9).build()),
                           true);
    }

    private void firstDies() {
        first.deactivate();
        nodes.kill("onos-1");
        nodes.master("onos-2");
    }

    private String window(FmmSession s, DeviceId enb) {
        return s.buffers().get(enb).toString();
    }

    @Test
    public void theNewMasterAttachesAndClosesASessionWhoseInstanceDiedMidHandoff() {
        FmmSession s = first.open(plan());
        first.handoff(s.id(), S2);
        cluster.arrive("device:s2", window(s, S2), 12);
        firstDies();
        // The UE's downlink waits in the target's window: every step is refused.
        assertEquals(BufferState.BUFFERING, cluster.mode("device:s2", window(s, S2)));
        assertReason(() -> second.attach(s.id()), FlowBufException.Reason.UNAVAILABLE);

        assertEquals(1, second.takeOver(ANCHOR));
        FmmSession attached = second.attach(s.id());
        assertEquals(FmmSession.State.ATTACHED, attached.state());
        assertEquals(S2, attached.serving());
        assertEquals(BufferState.FORWARDING, cluster.mode("device:s2", window(s, S2)));
        assertEquals(BufferState.BUFFERING, cluster.mode("device:s1", window(s, S1)));

        assertEquals(FmmSession.State.CLOSED, second.close(s.id()).state());
        assertEquals(Set.of(), cluster.bufferNames());
        assertEquals(Set.of(), cluster.intentNames());
        assertEquals(0, cluster.held());
    }

    @Test
    public void anAdoptedAttachedSessionHandsOffAgain() {
        FmmSession s = first.open(plan());
        firstDies();
        assertEquals(1, second.takeOver(ANCHOR));
        assertEquals(0, second.takeOver(ANCHOR));
        assertEquals(FmmSession.State.DETACHED, second.handoff(s.id(), S2).state());
        assertEquals(BufferState.BUFFERING, cluster.mode("device:s1", window(s, S1)));
        assertEquals(S2, second.attach(s.id()).serving());
        assertEquals(FmmSession.State.CLOSED, second.close(s.id()).state());
        assertEquals(Set.of(), cluster.intentNames());
    }

    @Test
    public void anInstanceThatIsNotTheAnchorsMasterAdoptsNothing() {
        FmmSession s = first.open(plan());
        first.handoff(s.id(), S2);
        first.deactivate();
        nodes.kill("onos-1");
        nodes.master("onos-3");
        assertEquals(0, second.takeOver(ANCHOR));
        assertReason(() -> second.attach(s.id()), FlowBufException.Reason.UNAVAILABLE);
    }

    @Test
    public void aSessionWhoseInstanceLivesIsNotAdopted() {
        FmmSession s = first.open(plan());
        assertEquals(0, first.takeOver(ANCHOR));
        nodes.master("onos-2");
        assertEquals(0, second.takeOver(ANCHOR));
        assertReason(() -> second.handoff(s.id(), S2), FlowBufException.Reason.UNAVAILABLE);
        // Its own instance still takes its steps.
        assertEquals(FmmSession.State.DETACHED, first.handoff(s.id(), S2).state());
    }

    @Test
    public void theNewMasterDisarmsWhatTheDeadRunnerArmedAndClosesTheTriggers() {
        FmmSession s = first.open(planWithReports());
        first.handoff(s.id(), S2);
        // The dead runner armed the source's hold and the target's release.
        assertEquals(2, cluster.armedTriggers().size());
        firstDies();

        assertEquals(1, second.takeOver(ANCHOR));
        assertEquals(S2, second.attach(s.id()).serving());
        // Nothing it armed may fire later.
        assertEquals(Set.of(), cluster.armedTriggers());
        assertEquals(BufferState.FORWARDING, cluster.mode("device:s2", window(s, S2)));
        assertEquals(BufferState.BUFFERING, cluster.mode("device:s1", window(s, S1)));

        assertEquals(FmmSession.State.CLOSED, second.close(s.id()).state());
        assertEquals(Set.of(), cluster.bufferNames());
        assertEquals(Set.of(), cluster.intentNames());
    }
}
