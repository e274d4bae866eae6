/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import com.google.common.util.concurrent.MoreExecutors;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.app.Race;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.StatefulSwitch;
import org.flowbuf.app.southbound.StatefulAgent;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * FMM sessions of a few UEs opened and closed from many threads at once on
 * one anchor: one open session per UE (the others refused, CONFLICT), no
 * multicast group written for two open sessions at once, and afterwards
 * every session closed, the anchor without a rule or a group (a stateful
 * switch refuses a rule written twice).
 */
public class FmmConcurrencyTest {

    private static final int THREADS = 200;
    private static final int UES = 4;

    private final StatefulSwitch anchorRules = new StatefulSwitch(500, 0);
    /** The anchor's groups: group to the session's ports; writing a held group is a fault. */
    private final Map<Integer, List<PortNumber>> groups = new ConcurrentHashMap<>();
    private final Set<String> faults = ConcurrentHashMap.newKeySet();
    private final AtomicInteger intentIds = new AtomicInteger();
    private final FmmManager fmm = new FmmManager(
            RecordingIntents.of(call -> StatefulAgent.pause(0, 200), intentIds::incrementAndGet,
                                FmmService.OWNER, downlink(0)),
            buffers(), anchorRules, groupWriter(), MoreExecutors.newDirectExecutorService());

    private static FlowFilter downlink(int ue) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.1." + (ue + 1) + "/32"))
                .build();
    }

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static FmmPlan plan(int ue) {
        return new FmmPlan(downlink(ue), cp("device:sa/1"), List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp("device:s2/1"), cp("device:s2/2"))),
                           DeviceId.deviceId("device:s1"), 64);
    }

    // Buffer calls take up to 0.2 ms, as an agent's; every buffer is empty.
    private static BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                FmmConcurrencyTest.class.getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    StatefulAgent.pause(0, 200);
                    switch (method.getName()) {
                        case "createBuffer":
                        case "moveBuffer":
                        case "removeBuffer":
                        case "armMove":
                            return null;
                        case "getStatistics":
                            return Optional.of(BufferStatistics.builder().build());
                        case "getDevices":
                            return Set.of(DeviceId.deviceId("device:s1"),
                                          DeviceId.deviceId("device:s2"));
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private MulticastGroupWriter groupWriter() {
        return new MulticastGroupWriter() {
            @Override
            public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
                if (groups.putIfAbsent(groupId, ports) != null) {
                    faults.add("group " + groupId + " written for two open sessions");
                }
                StatefulAgent.pause(0, 200);
            }

            @Override
            public void remove(DeviceId deviceId, int groupId) {
                StatefulAgent.pause(0, 200);
                groups.remove(groupId);
            }
        };
    }

    @Test
    public void sessionsOfFewUesOpenedAndClosedFromManyThreads() {
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            FmmSession open = fmm.open(plan(i % UES));
            return fmm.close(open.id());
        });
        int closed = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                assertEquals(r.toString(), FmmSession.State.CLOSED, ((FmmSession) r.value).state());
                closed++;
            } else if (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("is open")) {
                fail("unexpected refusal: " + r);
            }
        }
        assertTrue("no session opened", closed > 0);
        assertEquals("faults", Set.of(), faults);
        fmm.sessions().forEach(s -> assertEquals(s.toString(), FmmSession.State.CLOSED,
                                                 s.state()));
        assertEquals("anchor groups left", Map.of(), groups);
        assertEquals("anchor rules left", Set.of(), anchorRules.rules());
    }

    @Test
    public void openSessionsOfManyUesTakeDistinctGroups() {
        int ues = 64;
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> fmm.open(plan(i % ues)));
        for (Race.Reply r : replies) {
            if (!r.ok() && (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("is open"))) {
                fail("unexpected refusal: " + r);
            }
        }
        assertEquals("faults", Set.of(), faults);
        assertEquals("one open session per UE", ues, fmm.sessions().size());
        assertEquals("a group each", ues, fmm.sessions().stream()
                .map(FmmSession::multicastGroup).distinct().count());
        assertEquals("groups written", ues, groups.size());
        assertEquals("one anchor rule per UE", ues, anchorRules.rules().size());
    }
}
