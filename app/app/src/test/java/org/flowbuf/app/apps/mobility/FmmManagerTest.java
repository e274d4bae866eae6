/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.Uninterruptibles;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * FMM's calls on the Buffer Service, in order: how a session is wired, which
 * buffer holds and which delivers, what the sync purges (and against which
 * packet), what a refused step undoes, and what is refused.
 */
public class FmmManagerTest {

    private static final FlowFilter DOWNLINK = FlowFilter.builder()
            .ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build();
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId S3 = DeviceId.deviceId("device:s3");
    private static final PacketId FIRST = PacketId.of(7, 0xbeef);
    private static final PacketId LATER = PacketId.of(9, 0xcafe);
    private static final FlowFilter SIGNAL = FlowFilter.builder().ipProto(17).l4DstPort(9).build();

    // Written by a sync worker too (read once the attach has waited for it).
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    /** The last packet each eNB's buffer transmitted, as its agent reports it. */
    private final Map<DeviceId, PacketId> lastOut = new ConcurrentHashMap<>();
    /** The eNBs whose statistics were read (on any thread), in order. */
    private final List<DeviceId> statsReads = Collections.synchronizedList(new ArrayList<>());
    /** Statistics reads that fail before one succeeds. */
    private int statsFailures;
    /** Sync purges the agent cannot make before one it makes (an agent that predates awaiting a late copy). */
    private int purgeMisses;
    private String failOn;
    /** eNBs whose agent has seen the UE's attach signal (their armed release fired). */
    private final Set<DeviceId> signalled = ConcurrentHashMap.newKeySet();
    /** What the armed move of an eNB did when the UE's signal fired it (plans with ueReports). */
    private final Map<DeviceId, TriggerFire> fires = new ConcurrentHashMap<>();
    /** A fire that happens only after the attach polled the trigger lateSignalPolls times. */
    private final Map<DeviceId, TriggerFire> lateSignal = new ConcurrentHashMap<>();
    private final Map<DeviceId, Integer> triggerPolls = new ConcurrentHashMap<>();
    private int lateSignalPolls;
    private int nextIntent;
    /** The devices with a buffer agent, as the Buffer Service knows them. */
    private Set<DeviceId> agentDevices = Set.of(S1, S2, S3);
    // Syncs on the caller's thread: a handoff returns once its sync is made.
    private final FmmManager fmm = new FmmManager(intents(), buffers(), rules(), groups(),
                                                  MoreExecutors.newDirectExecutorService());

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static FmmPlan plan(DeviceId serving) {
        return new FmmPlan(DOWNLINK, cp("device:sa/1"), List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp("device:s2/1"), cp("device:s2/2")),
                new FmmPlan.Cell(cp("device:sa/4"), cp("device:s3/1"), cp("device:s3/2"))),
                           serving, 1024);
    }

    // The same plan, with the UE's attach signal (UDP to port 9).
    private static FmmPlan planWithSignal(DeviceId serving) {
        FmmPlan p = plan(serving);
        return new FmmPlan(p.downlink(), p.anchorIn(), p.cells(), serving, p.windowPackets(),
                           Optional.of(SIGNAL));
    }

    // The same plan, the UE signalling its detach too, with receive reports.
    private static FmmPlan planWithReports(DeviceId serving) {
        FmmPlan p = plan(serving);
        return new FmmPlan(p.downlink(), p.anchorIn(), p.cells(), serving, p.windowPackets(),
                           Optional.of(SIGNAL), true);
    }

    // An eNB's trigger buffer as the attach polls it: armed until its signal
    // fires it (a signal late by lateSignalPolls polls fires on the last).
    private BufferStatistics triggerStats(DeviceId enb) {
        triggerPolls.merge(enb, 1, Integer::sum);
        if (lateSignal.containsKey(enb) && triggerPolls.get(enb) >= lateSignalPolls) {
            fires.put(enb, lateSignal.remove(enb));
        }
        boolean fired = fires.containsKey(enb) || signalled.contains(enb);
        return BufferStatistics.builder().trigger(!fired, fired ? 1 : 0, 0).build();
    }

    // What a disarm of the eNB's trigger finds.
    private Disarmed disarmed(DeviceId enb) {
        if (fires.containsKey(enb)) {
            return Disarmed.fired(fires.get(enb));
        }
        return signalled.contains(enb)
                ? Disarmed.fired(TriggerFire.of(true, TriggerFire.ReportSync.NONE, 0))
                : Disarmed.stillArmed();
    }

    private void record(String call) {
        calls.add(call);
        if (call.equals(failOn)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, "injected: " + call);
        }
    }

    private FlowBufIntentService intents() {
        return RecordingIntents.of(this::record, () -> ++nextIntent, FmmService.OWNER, DOWNLINK);
    }

    private BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "createBuffer":
                            record("create " + args[0] + " " + args[1] + " " + args[4]);
                            return null;
                        case "moveBuffer":
                            record("move " + args[0] + " " + args[3]);
                            return null;
                        case "removeBuffer":
                            record("remove " + args[0] + (((Boolean) args[3]) ? " discard" : ""));
                            return null;
                        case "getStatistics":
                            if (args[1].toString().endsWith("-attach")) {
                                return Optional.of(triggerStats((DeviceId) args[0]));
                            }
                            statsReads.add((DeviceId) args[0]);
                            if (statsFailures > 0) {
                                statsFailures--;
                                throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                                           "injected: statistics");
                            }
                            PacketId out = lastOut.get((DeviceId) args[0]);
                            BufferStatistics.Builder stats = BufferStatistics.builder();
                            if (out != null) {
                                stats.lastOutPacketId(out);
                            }
                            return Optional.of(stats.build());
                        case "armMove":
                            record("arm " + args[0] + " " + args[1] + " moves " + args[2] + " to "
                                           + args[4] + (((Boolean) args[5]) ? " purged to report"
                                    : ""));
                            return null;
                        case "disarm":
                            record("disarm " + args[0] + " " + args[1]);
                            return disarmed((DeviceId) args[0]);
                        case "getDevices":
                            return agentDevices;
                        case "purgeToSyncPoint":
                            record("purge " + args[0] + " to sync point " + args[3]);
                            if (purgeMisses > 0) {
                                purgeMisses--;
                                return Optional.empty();
                            }
                            return Optional.of(5L);
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private SteeringRuleWriter rules() {
        return new SteeringRuleWriter() {
            @Override
            public void install(DeviceId deviceId, SteeringRule rule) {
                record("rule " + deviceId + " in " + rule.ingressPort().orElseThrow() + " -> group "
                               + rule.multicastGroup().orElseThrow() + " prio " + rule.priority());
            }

            @Override
            public void modify(DeviceId deviceId, SteeringRule rule) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void remove(DeviceId deviceId, SteeringRule rule) {
                record("unrule " + deviceId + " group " + rule.multicastGroup().orElseThrow());
            }
        };
    }

    private MulticastGroupWriter groups() {
        return new MulticastGroupWriter() {
            @Override
            public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
                record("group " + deviceId + " " + groupId + " " + ports);
            }

            @Override
            public void remove(DeviceId deviceId, int groupId) {
                record("ungroup " + deviceId + " " + groupId);
            }
        };
    }

    // The call recorded for a purge of the eNB's window to the sync point FIRST.
    private static String purgeToFirst(DeviceId enb) {
        return "purge " + enb + " to sync point " + FIRST;
    }

    private FmmSession openAtS1() {
        FmmSession s = fmm.open(plan(S1));
        calls.clear();
        return s;
    }

    @Test
    public void openGivesEveryEnbABufferAndOnlyTheServingOneDelivers() {
        FmmSession s = fmm.open(plan(S1));
        int group = FmmManager.FIRST_GROUP;
        assertEquals(List.of(
                "create device:s1 fmm-1-device_s1 BUFFERING",
                "pause device:s1/1 fmm-1-device_s1 #1",
                "resume device:s1/2 fmm-1-device_s1 #2",
                "create device:s2 fmm-1-device_s2 BUFFERING",
                "pause device:s2/1 fmm-1-device_s2 #3",
                "resume device:s2/2 fmm-1-device_s2 #4",
                "move device:s2 BUFFERING",
                "create device:s3 fmm-1-device_s3 BUFFERING",
                "pause device:s3/1 fmm-1-device_s3 #5",
                "resume device:s3/2 fmm-1-device_s3 #6",
                "move device:s3 BUFFERING",
                // The group exists before the rule that sends the downlink to it.
                "group device:sa " + group + " [2, 3, 4]",
                "rule device:sa in 1 -> group " + group + " prio "
                        + AnchorMulticast.MULTICAST_PRIORITY), calls);
        assertEquals(FmmSession.State.ATTACHED, s.state());
        assertEquals(S1, s.serving());
        assertEquals(group, s.multicastGroup());
        assertEquals(BufferId.bufferId("fmm-1-device_s2"), s.buffers().get(S2));
    }

    @Test
    public void aRefusedAnchorRuleUndoesEverythingAndTheDownlinkCanOpenAgain() {
        failOn = "rule device:sa in 1 -> group " + FmmManager.FIRST_GROUP + " prio "
                + AnchorMulticast.MULTICAST_PRIORITY;
        assertReason(() -> fmm.open(plan(S1)), FlowBufException.Reason.UNAVAILABLE);
        List<String> undo = calls.subList(calls.indexOf(failOn) + 1, calls.size());
        assertEquals("ungroup device:sa " + FmmManager.FIRST_GROUP, undo.get(0));
        assertEquals(3, undo.stream().filter(c -> c.startsWith("remove")).count());
        assertEquals(6, undo.stream().filter(c -> c.startsWith("withdraw")).count());
        assertTrue(fmm.sessions().isEmpty());
        failOn = null;
        assertEquals(FmmSession.State.ATTACHED, fmm.open(plan(S1)).state());
    }

    // Live under ONOS (2026-11-29): a plan whose second cell had no agent
    // was refused only after the first cell's buffer and intents were made
    // (the undo left withdrawn intents and rules written and removed).
    @Test
    public void aCellWithoutABufferAgentIsRefusedBeforeAnyStep() {
        agentDevices = Set.of(S1, S2);
        assertReason(() -> fmm.open(plan(S1)), FlowBufException.Reason.NOT_FOUND);
        assertEquals(List.of(), calls);
        assertTrue(fmm.sessions().isEmpty());
        agentDevices = Set.of(S1, S2, S3);
        assertEquals(FmmManager.FIRST_GROUP, fmm.open(plan(S1)).multicastGroup());
    }

    @Test
    public void aSecondSessionOfTheSameDownlinkIsRefused() {
        openAtS1();
        assertReason(() -> fmm.open(plan(S2)), FlowBufException.Reason.CONFLICT);
        assertTrue(calls.isEmpty());
    }

    @Test
    public void handoffHoldsTheSourceAndPurgesTheTargetAndAttachReleasesIt() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        s = fmm.handoff(s.id(), S2);
        // Up to what the source delivered, while the UE moves.
        assertEquals(List.of("move device:s1 BUFFERING",
                             purgeToFirst(S2)), calls);
        assertEquals(FmmSession.State.DETACHED, s.state());
        assertEquals(Optional.of(S2), s.target());

        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of("move device:s2 FORWARDING"), calls);
        assertEquals(FmmSession.State.ATTACHED, s.state());
        assertEquals(S2, s.serving());
        assertEquals(1, s.counters().handoffs());
        assertEquals(0, s.counters().unsynced());
        assertEquals(5, s.counters().purgedPackets());
    }

    @Test
    public void theSyncIsMadeAtTheHoldNotAtTheAttach() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        assertEquals(List.of(S1), statsReads);
        // Whatever the agent said later, the hold had made FIRST final.
        lastOut.put(S1, LATER);
        calls.clear();
        fmm.attach(s.id());
        assertEquals(List.of("move device:s2 FORWARDING"), calls);
        assertEquals(List.of(S1), statsReads);
    }

    @Test
    public void theAttachWaitsForTheSyncOfTheWorker() {
        FmmManager worker = new FmmManager(intents(), buffers(), rules(), groups());
        FmmSession s = worker.open(plan(S1));
        lastOut.put(S1, FIRST);
        worker.handoff(s.id(), S2);
        s = worker.attach(s.id());
        List<String> syncAndRelease = calls.subList(calls.indexOf("move device:s1 BUFFERING") + 1,
                                                    calls.size());
        // One purge, the worker's: the attach took its result.
        assertEquals(List.of(purgeToFirst(S2), "move device:s2 FORWARDING"), syncAndRelease);
        assertEquals(0, s.counters().unsynced());
        assertEquals(5, s.counters().purgedPackets());
        worker.deactivate();
    }

    @Test
    public void aSyncStillQueuedAfterTheWaitIsMadeByTheAttach() throws InterruptedException {
        ExecutorService busy = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        busy.execute(() -> Uninterruptibles.awaitUninterruptibly(release));
        FmmManager stuck = new FmmManager(intents(), buffers(), rules(), groups(), busy);
        FmmSession s = stuck.open(plan(S1));
        lastOut.put(S1, FIRST);
        stuck.handoff(s.id(), S2);
        calls.clear();
        long start = System.nanoTime();
        s = stuck.attach(s.id());
        assertTrue(System.nanoTime() - start >= SyncPointHandoffs.HELD_SYNC_WAIT_MS * 1_000_000);
        assertEquals(List.of(S1), statsReads);
        assertEquals(List.of(purgeToFirst(S2),
                             "move device:s2 FORWARDING"), calls);
        assertEquals(S2, s.serving());
        release.countDown();
        stuck.deactivate();
        assertTrue(busy.awaitTermination(5, TimeUnit.SECONDS));
    }

    @Test
    public void aSyncTheAgentCouldNotMakeAtTheHoldIsMadeByTheAttachElseCountedUnsynced() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        // One miss, the worker's at the hold: the attach purges again.
        purgeMisses = 1;
        fmm.handoff(s.id(), S2);
        s = fmm.attach(s.id());
        assertEquals(2, calls.stream().filter(c -> c.startsWith("purge")).count());
        assertEquals(0, s.counters().unsynced());

        purgeMisses = Integer.MAX_VALUE;
        lastOut.put(S2, LATER);
        fmm.handoff(s.id(), S1);
        s = fmm.attach(s.id());
        // Released whole after the wait: the UE gets duplicates rather than a gap.
        assertEquals(1, s.counters().unsynced());
        assertEquals(S1, s.serving());
        assertEquals("move device:s1 FORWARDING", calls.get(calls.size() - 1));
    }

    @Test
    public void aCopyStillMissingAtTheHoldIsPurgedAtTheAttach() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        purgeMisses = Integer.MAX_VALUE;
        fmm.handoff(s.id(), S2);
        purgeMisses = 0;
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of(purgeToFirst(S2),
                             "move device:s2 FORWARDING"), calls);
        assertEquals(0, s.counters().unsynced());
        assertEquals(5, s.counters().purgedPackets());
    }

    @Test
    public void aHandoffDuringAHandoffPurgesTheNewTargetAtTheAttach() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        calls.clear();
        s = fmm.handoff(s.id(), S3);
        assertTrue(calls.isEmpty());
        assertEquals(Optional.of(S3), s.target());
        s = fmm.attach(s.id());
        assertEquals(List.of(purgeToFirst(S3),
                             "move device:s3 FORWARDING"), calls);
        assertEquals(S3, s.serving());
        assertEquals(List.of(S1), statsReads);
    }

    @Test
    public void aSourceThatDeliveredNothingKeepsTheEarlierSyncPoint() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        fmm.attach(s.id());
        // s2 transmitted nothing before the UE moved on.
        calls.clear();
        fmm.handoff(s.id(), S3);
        fmm.attach(s.id());
        assertEquals(List.of("move device:s2 BUFFERING",
                             purgeToFirst(S3),
                             "move device:s3 FORWARDING"), calls);
    }

    @Test
    public void handingBackToTheSourceBeforeAttachPurgesNothingThere() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        fmm.handoff(s.id(), S1);
        calls.clear();
        s = fmm.attach(s.id());
        // Its own window starts after what it delivered.
        assertEquals(List.of("move device:s1 FORWARDING"), calls);
        assertEquals(S1, s.serving());
    }

    @Test
    public void aSyncPointReadThatFailedAtTheHoldIsMadeAgainAtTheAttach() {
        FmmSession s = openAtS1();
        lastOut.put(S1, FIRST);
        statsFailures = 1;
        fmm.handoff(s.id(), S2);
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of(S1, S1), statsReads);
        assertEquals(List.of(purgeToFirst(S2),
                             "move device:s2 FORWARDING"), calls);
        assertEquals(0, s.counters().unsynced());
    }

    @Test
    public void aStoppedWorkerLeavesTheSyncToTheAttach() {
        FmmSession s = openAtS1();
        fmm.deactivate();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        assertEquals(List.of("move device:s1 BUFFERING"), calls);
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of(S1), statsReads);
        assertEquals(List.of(purgeToFirst(S2),
                             "move device:s2 FORWARDING"), calls);
        assertEquals(S2, s.serving());
    }

    @Test
    public void badCallsAreRefusedAndChangeNothing() {
        FmmSession s = openAtS1();
        assertReason(() -> fmm.attach(s.id()), FlowBufException.Reason.CONFLICT);
        assertReason(() -> fmm.handoff(s.id(), DeviceId.deviceId("device:s9")), FlowBufException.Reason.INVALID);
        assertReason(() -> fmm.handoff(42, S2), FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> fmm.attach(42), FlowBufException.Reason.NOT_FOUND);
        assertReason(() -> fmm.close(42), FlowBufException.Reason.NOT_FOUND);
        assertTrue(calls.isEmpty());
        assertEquals(FmmSession.State.ATTACHED, fmm.session(s.id()).orElseThrow().state());
    }

    @Test
    public void closeStopsTheMulticastThenRemovesEveryBufferAndIntent() {
        FmmSession s = openAtS1();
        s = fmm.close(s.id());
        int group = FmmManager.FIRST_GROUP;
        assertEquals(List.of(
                "unrule device:sa group " + group,
                "ungroup device:sa " + group,
                // The serving eNB delivers until its pause rule goes.
                "withdraw 1", "withdraw 2", "remove device:s1 discard",
                // A holding eNB's window is copies: dropped.
                "withdraw 4", "remove device:s2 discard", "withdraw 3",
                "withdraw 6", "remove device:s3 discard", "withdraw 5"), calls);
        assertEquals(FmmSession.State.CLOSED, s.state());
        assertReason(() -> fmm.close(1), FlowBufException.Reason.CONFLICT);
        assertReason(() -> fmm.handoff(1, S2), FlowBufException.Reason.CONFLICT);
        // The group is free again.
        assertEquals(group, fmm.open(plan(S1)).multicastGroup());
    }

    @Test
    public void closingMidHandoffDropsEveryWindow() {
        FmmSession s = openAtS1();
        fmm.handoff(s.id(), S2);
        calls.clear();
        assertEquals(FmmSession.State.CLOSED, fmm.close(s.id()).state());
        // No buffer delivers mid-handoff: each goes the holding way.
        assertEquals(List.of("withdraw 2", "remove device:s1 discard", "withdraw 1"),
                     calls.subList(2, 5));
    }

    @Test
    public void aFailedRemovalIsReportedNotHidden() {
        FmmSession s = openAtS1();
        failOn = "remove device:s2 discard";
        s = fmm.close(s.id());
        assertEquals(FmmSession.State.FAILED, s.state());
        assertTrue(s.failure().orElseThrow().contains("device:s2"));
        // The other eNBs were still cleaned up.
        assertTrue(calls.contains("remove device:s3 discard"));
    }

    @Test
    public void onlyTheLatestClosedSessionsAreListedAndAFailedOneIsKept() {
        failOn = "remove device:s2 discard";
        long failed = fmm.close(fmm.open(plan(S1)).id()).id();
        failOn = null;
        long first = fmm.close(fmm.open(plan(S1)).id()).id();
        for (int i = 1; i <= Retention.DEFAULT_KEPT; i++) {
            calls.clear();
            fmm.close(fmm.open(plan(S1)).id());
        }
        assertEquals(Retention.DEFAULT_KEPT + 1, fmm.sessions().size());
        assertTrue(fmm.session(first).isEmpty());
        assertEquals(FmmSession.State.FAILED, fmm.session(failed).orElseThrow().state());
    }

    private static void invalid(Runnable call) {
        assertReason(call, FlowBufException.Reason.INVALID);
    }

    @Test
    public void plansAreValidated() {
        List<FmmPlan.Cell> cells = plan(S1).cells();
        ConnectPoint in = cp("device:sa/1");
        invalid(() -> new FmmPlan(DOWNLINK, in, cells.subList(0, 1), S1, 10));
        invalid(() -> new FmmPlan(DOWNLINK, in, cells, DeviceId.deviceId("device:s9"), 10));
        invalid(() -> new FmmPlan(DOWNLINK, in, cells, S1, 0));
        invalid(() -> new FmmPlan(DOWNLINK, in, cells, S1, FmmPlan.MAX_WINDOW_PACKETS + 1));
        invalid(() -> new FmmPlan(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.0/24"))
                                          .build(), in, cells, S1, 10));
        invalid(() -> new FmmPlan(DOWNLINK, cp("device:sb/1"), cells, S1, 10));
        invalid(() -> new FmmPlan(DOWNLINK, cp("device:sa/2"), cells, S1, 10));
        invalid(() -> new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s2/2")));
        List<FmmPlan.Cell> twice = List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp("device:s1/3"), cp("device:s1/4")));
        invalid(() -> new FmmPlan(DOWNLINK, in, twice, S1, 10));
        invalid(() -> new FmmPlan(DOWNLINK, in, cells, S1, 10, Optional.empty(), true));
    }

    @Test
    public void anAttachSignalIsSteeredIntoATriggerAtEveryEnb() {
        fmm.open(planWithSignal(S1));
        List<String> triggers = calls.subList(calls.indexOf("move device:s3 BUFFERING") + 1,
                                              calls.size());
        assertEquals(List.of(
                "create device:s1 fmm-1-device_s1-attach BUFFERING",
                "pause device:s1/2 fmm-1-device_s1-attach #7",
                "create device:s2 fmm-1-device_s2-attach BUFFERING",
                "pause device:s2/2 fmm-1-device_s2-attach #8",
                "create device:s3 fmm-1-device_s3-attach BUFFERING",
                "pause device:s3/2 fmm-1-device_s3-attach #9"), triggers.subList(0, 6));
    }

    // A session at s1 with an attach signal, its opening calls cleared.
    private FmmSession openWithSignalAtS1() {
        FmmSession s = fmm.open(planWithSignal(S1));
        calls.clear();
        return s;
    }

    @Test
    public void theTargetIsArmedOnceItsWindowIsPurgedAndTheSignalReleasesIt() {
        FmmSession s = openWithSignalAtS1();
        lastOut.put(S1, FIRST);
        s = fmm.handoff(s.id(), S2);
        assertEquals(List.of("move device:s1 BUFFERING", purgeToFirst(S2),
                             "arm device:s2 fmm-1-device_s2-attach moves fmm-1-device_s2 to "
                                     + "FORWARDING"), calls);
        signalled.add(S2);
        calls.clear();
        s = fmm.attach(s.id());
        // The agent released it; the move only confirms (no agent call, see BufferManagerTest).
        assertEquals(List.of("disarm device:s2 fmm-1-device_s2-attach",
                             "move device:s2 FORWARDING"), calls);
        assertEquals(1, s.counters().releasedOnSignal());
        assertEquals(0, s.counters().unsynced());
    }

    @Test
    public void aSignalNotSeenByTheAttachIsDisarmedAndTheAttachReleases() {
        FmmSession s = openWithSignalAtS1();
        lastOut.put(S1, FIRST);
        s = fmm.attach(fmm.handoff(s.id(), S2).id());
        assertTrue(calls.indexOf("disarm device:s2 fmm-1-device_s2-attach")
                           < calls.indexOf("move device:s2 FORWARDING"));
        assertEquals(0, s.counters().releasedOnSignal());
    }

    @Test
    public void anArmTheAgentRefusesLeavesTheReleaseToTheAttach() {
        FmmSession s = openWithSignalAtS1();
        lastOut.put(S1, FIRST);
        failOn = "arm device:s2 fmm-1-device_s2-attach moves fmm-1-device_s2 to FORWARDING";
        s = fmm.handoff(s.id(), S2);
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals("nothing armed, nothing to disarm", List.of("move device:s2 FORWARDING"),
                     calls);
        assertEquals(0, s.counters().releasedOnSignal());
        assertEquals(0, s.counters().unsynced());
    }

    @Test
    public void aWindowNotPurgedIsNeverArmed() {
        FmmSession s = openWithSignalAtS1();
        lastOut.put(S1, FIRST);
        purgeMisses = Integer.MAX_VALUE;
        s = fmm.attach(fmm.handoff(s.id(), S2).id());
        assertTrue(calls.stream().noneMatch(c -> c.startsWith("arm ") || c.startsWith("disarm ")));
        assertEquals(1, s.counters().unsynced());
    }

    @Test
    public void aTargetTheUeDidNotGoToIsDisarmedAtTheAttach() {
        FmmSession s = openWithSignalAtS1();
        lastOut.put(S1, FIRST);
        s = fmm.handoff(fmm.handoff(s.id(), S2).id(), S3);
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of("disarm device:s2 fmm-1-device_s2-attach", purgeToFirst(S3),
                             "move device:s3 FORWARDING"), calls);
        assertEquals(0, s.counters().releasedOnSignal());
    }

    @Test
    public void closeRemovesEachTriggerWithWhatItHoldsThenItsSteering() {
        FmmSession s = openWithSignalAtS1();
        fmm.close(s.id());
        List<String> triggers = calls.subList(calls.size() - 6, calls.size());
        assertEquals(List.of("remove device:s1 discard", "withdraw 7",
                             "remove device:s2 discard", "withdraw 8",
                             "remove device:s3 discard", "withdraw 9"), triggers);
    }

    // A session at s1 whose UE signals and reports, its opening calls cleared.
    private FmmSession openWithReportsAtS1() {
        FmmSession s = fmm.open(planWithReports(S1));
        calls.clear();
        return s;
    }

    private static String armHold(DeviceId enb) {
        String name = "fmm-1-" + enb.toString().replace(':', '_');
        return "arm " + enb + " " + name + "-attach moves " + name + " to BUFFERING";
    }

    private static String armReportedRelease(DeviceId enb) {
        String name = "fmm-1-" + enb.toString().replace(':', '_');
        return "arm " + enb + " " + name + "-attach moves " + name + " to FORWARDING purged to report";
    }

    private static String disarm(DeviceId enb) {
        return "disarm " + enb + " fmm-1-" + enb.toString().replace(':', '_') + "-attach";
    }

    private static final TriggerFire HELD = TriggerFire.of(true, TriggerFire.ReportSync.NONE, 0);

    private static TriggerFire releasedSynced(long purged) {
        return TriggerFire.of(true, TriggerFire.ReportSync.SYNCED, purged);
    }

    @Test
    public void aReportedHandoffArmsTheSourcesHoldAndTheTargetsReleaseAndNothingElse() {
        FmmSession s = openWithReportsAtS1();
        lastOut.put(S1, FIRST);
        fmm.handoff(s.id(), S2);
        // The source keeps delivering: no hold, no sync point read, no purge.
        assertEquals(List.of(armHold(S1), armReportedRelease(S2)), calls);
        assertTrue(statsReads.isEmpty());
    }

    @Test
    public void aReportedHandoffHasArmedTheTargetWhenItsCallReturnsWhateverTheWorker()
            throws InterruptedException {
        // The UE moves on the call's answer: an arm left to a busy worker let
        // its join signal pass an unarmed target (a whole window re-delivered).
        ExecutorService busy = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        busy.execute(() -> Uninterruptibles.awaitUninterruptibly(release));
        FmmManager stuck = new FmmManager(intents(), buffers(), rules(), groups(), busy);
        FmmSession s = stuck.open(planWithReports(S1));
        calls.clear();
        stuck.handoff(s.id(), S2);
        assertEquals(List.of(armHold(S1), armReportedRelease(S2)), calls);
        release.countDown();
        stuck.deactivate();
        assertTrue(busy.awaitTermination(5, TimeUnit.SECONDS));
    }

    @Test
    public void whenBothSignalsFiredTheAttachOnlyDisarmsConfirmsAndCounts() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(s.id(), S2);
        fires.put(S1, HELD);
        fires.put(S2, releasedSynced(12));
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(Set.of(disarm(S1), disarm(S2)), Set.copyOf(calls.subList(0, 2)));
        // Both moves only confirm what the agents did (no agent call, see BufferManagerTest).
        assertEquals(List.of("move device:s1 BUFFERING", "move device:s2 FORWARDING"),
                     calls.subList(2, calls.size()));
        FmmSession.Counters c = s.counters();
        assertEquals(List.of(1L, 1L, 1L, 0L, 12L), List.of(c.handoffs(), c.heldOnSignal(),
                                                            c.releasedOnSignal(), c.unsynced(),
                                                            c.purgedPackets()));
        assertEquals(S2, s.serving());
    }

    @Test
    public void aMissingLeaveSignalIsHeldByTheAttachBeforeTheRelease() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(s.id(), S2);
        fires.put(S2, releasedSynced(3));
        calls.clear();
        s = fmm.attach(s.id());
        assertTrue(calls.indexOf("move device:s1 BUFFERING")
                           < calls.indexOf("move device:s2 FORWARDING"));
        assertEquals(0, s.counters().heldOnSignal());
        assertEquals(1, s.counters().releasedOnSignal());
    }

    @Test
    public void withoutTheUesReportTheAttachReleasesTheWholeWindowAndCountsItUnsynced() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.attach(fmm.handoff(s.id(), S2).id());
        assertTrue(calls.contains("move device:s2 FORWARDING"));
        assertTrue("no purge without the UE's report",
                   calls.stream().noneMatch(c -> c.startsWith("purge ")));
        assertEquals(List.of(1L, 0L, 0L), List.of(s.counters().unsynced(),
                                                   s.counters().releasedOnSignal(),
                                                   s.counters().purgedPackets()));
    }

    @Test
    public void anAttachThatOvertakesTheUesJoinSignalWaitsForItsFire() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(s.id(), S2);
        lateSignalPolls = 3;
        lateSignal.put(S2, releasedSynced(7));
        s = fmm.attach(s.id());
        assertEquals(3, (int) triggerPolls.get(S2));
        assertEquals(List.of(0L, 1L, 7L), List.of(s.counters().unsynced(),
                                                   s.counters().releasedOnSignal(),
                                                   s.counters().purgedPackets()));
    }

    @Test
    public void aJoinSignalThatNeverComesCostsTheAttachTheWaitThenReleasesUnsynced() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(s.id(), S2);
        long start = System.nanoTime();
        s = fmm.attach(s.id());
        assertTrue(System.nanoTime() - start
                           >= TimeUnit.MILLISECONDS.toNanos(ReportedHandoffs.SIGNAL_WAIT_MS));
        assertTrue(calls.contains("move device:s2 FORWARDING"));
        assertEquals(1, s.counters().unsynced());
    }

    @Test
    public void aReportTheTargetDidNotHoldIsCountedUnsynced() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(s.id(), S2);
        fires.put(S2, TriggerFire.of(true, TriggerFire.ReportSync.UNSYNCED, 0));
        s = fmm.attach(s.id());
        assertEquals(1, s.counters().unsynced());
        assertEquals(1, s.counters().releasedOnSignal());
    }

    @Test
    public void aHoldTheAgentRefusesToArmIsMadeByTheHandoffCall() {
        FmmSession s = openWithReportsAtS1();
        failOn = armHold(S1);
        fmm.handoff(s.id(), S2);
        assertEquals(List.of(armHold(S1), "move device:s1 BUFFERING", armReportedRelease(S2)),
                     calls);
    }

    @Test
    public void handingBackToTheServingEnbHoldsAtTheCallAndArmsItsRelease() {
        FmmSession s = openWithReportsAtS1();
        fmm.handoff(s.id(), S1);
        assertEquals(List.of("move device:s1 BUFFERING", armReportedRelease(S1)), calls);
        fires.put(S1, releasedSynced(0));
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(List.of(disarm(S1), "move device:s1 FORWARDING"), calls);
        assertEquals(0, s.counters().heldOnSignal());
    }

    @Test
    public void aRetargetArmsTheNewTargetAndTheAttachHoldsEveryOther() {
        FmmSession s = openWithReportsAtS1();
        s = fmm.handoff(fmm.handoff(s.id(), S2).id(), S3);
        assertEquals(List.of(armHold(S1), armReportedRelease(S2), armReportedRelease(S3)), calls);
        fires.put(S1, HELD);
        fires.put(S3, releasedSynced(4));
        calls.clear();
        s = fmm.attach(s.id());
        assertEquals(Set.of(disarm(S1), disarm(S2), disarm(S3)), Set.copyOf(calls.subList(0, 3)));
        assertEquals(Set.of("move device:s1 BUFFERING", "move device:s2 BUFFERING"),
                     Set.copyOf(calls.subList(3, 5)));
        assertEquals("move device:s3 FORWARDING", calls.get(5));
        assertEquals(S3, s.serving());
        assertEquals(1, s.counters().releasedOnSignal());
    }
}
