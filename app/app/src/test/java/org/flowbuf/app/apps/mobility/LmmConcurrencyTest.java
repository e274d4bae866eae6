/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.app.Race;
import org.flowbuf.app.ServiceStack;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.StatefulSwitch;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * LMM handoffs of a few UEs from many threads at once: one handoff of a UE
 * under way at a time (the others refused, CONFLICT), each started one
 * attached by its thread, and afterwards every handoff completed and the
 * anchor's switch steering each UE where its last handoff took it, one
 * rule per UE (a stateful switch refuses a rule written twice).
 */
public class LmmConcurrencyTest {

    private static final int THREADS = 200;
    private static final int UES = 4;

    private final ServiceStack stack = new ServiceStack(4);
    private final StatefulSwitch anchor = new StatefulSwitch(500, 0);
    private final LmmManager lmm = new LmmManager(stack.intents, stack.buffers, null, anchor,
                                                  (device, port, frame) -> { });

    @After
    public void stop() {
        lmm.deactivate();
    }

    private static FlowFilter downlink(int ue) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.1." + (ue + 1) + "/32"))
                .build();
    }

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    // A handoff of the UE without buffers; odd ones go to the eNB behind anchor port 3.
    private static HandoffPlan plan(int ue, int hop) {
        int toTarget = hop % 2 == 0 ? 2 : 3;
        return HandoffPlan.builder().downlink(downlink(ue)).buffering(HandoffPlan.Buffering.NONE)
                .anchor(cp("device:sa/1"), cp("device:sa/" + (5 - toTarget)),
                        cp("device:sa/" + toTarget))
                .source(cp("device:s1/1"), cp("device:s1/3"))
                .target(cp("device:s2/1"), cp("device:s2/3"), cp("device:s2/2"))
                .build();
    }

    @Test
    public void handoffsOfFewUesFromManyThreadsRunOneAtATimePerUe() {
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            LmmHandoff started = lmm.start(plan(i % UES, i / UES));
            return lmm.attach(started.id());
        });
        int completed = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                assertEquals(r.toString(), LmmHandoff.State.COMPLETED,
                             ((LmmHandoff) r.value).state());
                completed++;
            } else if (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("under way")) {
                fail("unexpected refusal: " + r);
            }
        }
        assertEquals("handoffs recorded vs attached", completed, lmm.handoffs().size());
        Set<SteeringRule> expected = new HashSet<>();
        for (int ue = 0; ue < UES; ue++) {
            FlowFilter wanted = downlink(ue);
            List<LmmHandoff> mine = lmm.handoffs().stream()
                    .filter(h -> h.plan().downlink().equals(wanted))
                    .sorted(Comparator.comparingLong(LmmHandoff::id))
                    .collect(Collectors.toList());
            mine.forEach(h -> assertEquals(h.toString(), LmmHandoff.State.COMPLETED, h.state()));
            if (!mine.isEmpty()) {
                HandoffPlan last = mine.get(mine.size() - 1).plan();
                expected.add(new SteeringRule(wanted, false, 1L,
                                              last.anchorToTarget().port().toLong(),
                                              AnchorPaths.PATH_PRIORITY));
            }
        }
        assertEquals("the anchor steers each UE where its last handoff took it", expected,
                     anchor.rules());
    }
}
