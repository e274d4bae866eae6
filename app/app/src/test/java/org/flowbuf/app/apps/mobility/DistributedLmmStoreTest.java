/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.app.store.ClusterStorage;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;

import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/** What one instance stores of LMM, another reads back: the serializer and the maps. */
public class DistributedLmmStoreTest {

    private static final FlowFilter DOWNLINK = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).ipProto(17).build();

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static HandoffPlan plan() {
        return HandoffPlan.builder().downlink(DOWNLINK)
                .anchor(cp("device:sa/1"), cp("device:sa/2"), cp("device:sa/3"))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2"))
                .build();
    }

    private static LmmHandoff handoff(long id, LmmHandoff.State state) {
        return new LmmHandoff(id, plan(), state, BufferId.bufferId("lmm-1-src"), null,
                              BufferId.bufferId("lmm-1-new"), 1, null);
    }

    private static <T> T roundTrip(T value) {
        return DistributedLmmStore.SERIALIZER.decode(DistributedLmmStore.SERIALIZER.encode(value));
    }

    private static Resident resident() {
        return new Resident(cp("device:s2/1"), cp("device:s2/2"), BufferId.bufferId("lmm-1-new"),
                            IntentId.intentId(3), IntentId.intentId(5));
    }

    @Test
    public void aHandoffAndAResidentSurviveTheSerializer() {
        LmmHandoff h = roundTrip(handoff(7, LmmHandoff.State.ATTACHED));
        assertEquals(7, h.id());
        assertEquals(LmmHandoff.State.ATTACHED, h.state());
        assertEquals(plan().downlink(), h.plan().downlink());
        assertEquals(plan().target(), h.plan().target());
        assertEquals(HandoffPlan.Buffering.FLOWBUF, h.plan().buffering());
        assertEquals(Optional.of(BufferId.bufferId("lmm-1-new")), h.newPathBuffer());
        assertEquals(1, h.markerReports());
        Resident r = roundTrip(resident());
        assertEquals(cp("device:s2/1"), r.in);
        assertEquals(BufferId.bufferId("lmm-1-new"), r.buffer);
        assertEquals(IntentId.intentId(5), r.resume);
        assertEquals(DOWNLINK, roundTrip(DOWNLINK));
    }

    @Test
    public void anotherInstanceSeesTheHandoffsAndResidentsAndTakesNoIdTwice() {
        ClusterStorage cluster = new ClusterStorage();
        LmmStore first = new DistributedLmmStore(cluster);
        LmmStore second = new DistributedLmmStore(cluster);
        long a = first.nextId();
        long b = second.nextId();
        assertNotEquals(a, b);
        first.put(handoff(a, LmmHandoff.State.DETACHED));
        first.putResident(DOWNLINK, resident());
        assertEquals(LmmHandoff.State.DETACHED, second.get(a).orElseThrow().state());
        assertEquals(1, second.handoffs().size());
        assertEquals(BufferId.bufferId("lmm-1-new"), second.resident(DOWNLINK).orElseThrow().buffer);
        second.removeResident(DOWNLINK);
        second.remove(a);
        assertTrue(first.resident(DOWNLINK).isEmpty());
        assertTrue(first.get(a).isEmpty());
    }

    @Test
    public void anotherInstanceSeesWhoRunsAHandoffUntilItIsForgotten() {
        ClusterStorage cluster = new ClusterStorage();
        LmmStore first = new DistributedLmmStore(cluster);
        LmmStore second = new DistributedLmmStore(cluster);
        long id = first.nextId();
        first.put(handoff(id, LmmHandoff.State.ATTACHED));
        first.putRunner(id, "onos-1");
        assertEquals(Optional.of("onos-1"), second.runner(id));
        second.putRunner(id, "onos-2");
        assertEquals(Optional.of("onos-2"), first.runner(id));
        second.remove(id);
        assertEquals(Optional.empty(), first.runner(id));
    }
}
