/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
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
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.ConnectionlessService;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.api.apps.NfvMigration;
import org.onosproject.net.ConnectPoint;
import org.flowbuf.api.apps.LmmService;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.cli.AbstractShellCommand;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Every command against recording fakes of the services: arguments parsed,
 * output printed as a table or as the REST JSON, bad input refused with one
 * "Error:" line and no service call.
 */
public class FlowBufCommandsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final Buffer B1 = new Buffer(S1, BufferId.bufferId("b1"), "org.flowbuf.rest",
                                                BufferSpec.defaults(), VportId.vportId("vp100"),
                                                VportMode.RX, 42);
    private static final FlowBufIntent PAUSED = new FlowBufIntent(
            IntentId.intentId(7), FlowBufIntent.Type.PAUSE, S1, PortNumber.portNumber(1),
            FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.1/32")).build(),
            BufferId.bufferId("b1"), FlowBufIntent.State.INSTALLED, "org.flowbuf.rest", null);

    private final List<String> calls = new ArrayList<>();
    private final List<Object[]> arguments = new ArrayList<>();
    private final Map<String, Object> answers = new HashMap<>();
    @Rule
    public final ShellOutput shell = new ShellOutput();

    /** A service whose every call is recorded and answered from `answers` (or throws). */
    private <T> T fake(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                (proxy, method, args) -> {
                    calls.add(method.getName() + (args == null ? "" : List.of(args)));
                    arguments.add(args == null ? new Object[0] : args);
                    Object answer = answers.get(method.getName());
                    if (answer instanceof RuntimeException) {
                        throw (RuntimeException) answer;
                    }
                    return answer;
                }));
    }

    @Before
    public void setUp() {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        BufferService buffers = fake(BufferService.class);
        FlowBufIntentService intents = fake(FlowBufIntentService.class);
        NfvMigrationService nfv = fake(NfvMigrationService.class);
        ConnectionlessService cc = fake(ConnectionlessService.class);
        LmmService lmm = fake(LmmService.class);
        FmmService fmm = fake(FmmService.class);
        FlowBufCommand.useServices(type -> type == BufferService.class ? buffers
                : type == FlowBufIntentService.class ? intents
                : type == NfvMigrationService.class ? nfv
                : type == ConnectionlessService.class ? cc
                : type == LmmService.class ? lmm
                : type == FmmService.class ? fmm
                : type == CodecService.class ? codecs : null);
        answers.put("getDevices", Set.of(S1));
        answers.put("getBuffers", List.of(B1));
        answers.put("pause", PAUSED);
        answers.put("getIntents", List.of(PAUSED));
    }

    private static void json(AbstractShellCommand command) throws ReflectiveOperationException {
        Field json = AbstractShellCommand.class.getDeclaredField("json");
        json.setAccessible(true);
        json.set(command, true);
    }

    @Test
    public void buffersAreListedAsATableOrAsTheRestJson() throws Exception {
        new BuffersListCommand().doExecute();
        assertTrue(shell.out(), shell.out().contains("b1") && shell.out().contains("BUFFERING")
                && shell.out().contains("vp100") && shell.out().contains("42"));
        shell.resetOut();
        BuffersListCommand asJson = new BuffersListCommand();
        json(asJson);
        asJson.doExecute();
        JsonNode array = new ObjectMapper().readTree(shell.out());
        assertEquals("b1", array.get(0).get("id").asText());
        assertEquals("BUFFERING", array.get(0).get("state").asText());
        assertEquals(42, array.get(0).get("occupancyPackets").asInt());
    }

    @Test
    public void pauseParsesTheFlowAndPrintsTheIntent() {
        PauseCommand pause = new PauseCommand();
        pause.device = "device:s1";
        pause.inPort = "1";
        pause.src = "10.0.0.1";
        pause.proto = 17;
        pause.dport = 9000;
        pause.doExecute();
        assertEquals(1, calls.size());
        assertTrue(calls.get(0), calls.get(0).startsWith("pause[device:s1, 1, FlowFilter{"));
        assertTrue(calls.get(0), calls.get(0).contains("ipv4Src=10.0.0.1/32")
                && calls.get(0).contains("l4DstPort=9000") && calls.get(0).contains("Optional.empty"));
        assertTrue(shell.out(), shell.out().contains("PAUSE") && shell.out().contains("INSTALLED"));
        assertEquals("", shell.err());
    }

    @Test
    public void aFlowThatMatchesEveryPacketMustBeNamedAll() {
        PauseCommand unnamed = new PauseCommand();
        unnamed.device = "device:s1";
        unnamed.inPort = "1";
        unnamed.doExecute();
        PauseCommand allAndMore = new PauseCommand();
        allAndMore.device = "device:s1";
        allAndMore.inPort = "1";
        allAndMore.all = true;
        allAndMore.proto = 17;
        allAndMore.doExecute();
        String[] lines = shell.err().trim().split("\n");
        assertEquals(shell.err(), 2, lines.length);
        assertTrue(lines[0], lines[0].startsWith("Error: no flow named: every IPv4 packet would "
                                                         + "match") && lines[0].contains("--all"));
        assertTrue(lines[1], lines[1].startsWith("Error: --all is every IPv4 packet"));
        assertTrue("no service was called: " + calls, calls.isEmpty());
        PauseCommand all = new PauseCommand();
        all.device = "device:s1";
        all.inPort = "1";
        all.all = true;
        all.doExecute();
        assertEquals(1, calls.size());
        assertTrue(calls.get(0), calls.get(0).startsWith("pause[device:s1, 1, FlowFilter{}"));
    }

    @Test
    public void badArgumentsAreOneErrorLineAndNoCall() {
        PauseCommand badPrefix = new PauseCommand();
        badPrefix.device = "device:s1";
        badPrefix.inPort = "1";
        badPrefix.src = "10.0.0.300";
        badPrefix.doExecute();
        PauseCommand badPort = new PauseCommand();
        badPort.device = "device:s1";
        badPort.inPort = "zero";
        badPort.doExecute();
        ResumeCommand badDevice = new ResumeCommand();
        badDevice.device = "s1";
        badDevice.outPort = "2";
        badDevice.doExecute();
        ResumeCommand portWithoutProto = new ResumeCommand();
        portWithoutProto.device = "device:s1";
        portWithoutProto.outPort = "2";
        portWithoutProto.dport = 80;
        portWithoutProto.doExecute();
        BufferMoveCommand badState = new BufferMoveCommand();
        badState.device = "device:s1";
        badState.bufferId = "b1";
        badState.state = "SLEEPING";
        badState.doExecute();
        BufferCreateCommand badQueue = new BufferCreateCommand();
        badQueue.device = "device:s1";
        badQueue.bufferId = "b2";
        badQueue.queue = "LIFO";
        badQueue.doExecute();
        IntentWithdrawCommand badIntent = new IntentWithdrawCommand();
        badIntent.intentId = "seven";
        badIntent.doExecute();
        BufferRemoveCommand badBuffer = new BufferRemoveCommand();
        badBuffer.device = "device:s1";
        badBuffer.bufferId = "no spaces allowed";
        badBuffer.doExecute();
        NfvMigrateCommand migrationZero = new NfvMigrateCommand();
        migrationZero.action = "complete";
        migrationZero.deviceOrId = "0";
        migrationZero.port = "3";
        migrationZero.doExecute();
        LmmHandoffCommand handoffBelowOne = new LmmHandoffCommand();
        handoffBelowOne.action = "attach";
        handoffBelowOne.ueOrId = "-1";
        handoffBelowOne.doExecute();
        String[] lines = shell.err().trim().split("\n");
        assertEquals(shell.err(), 10, lines.length);
        for (String line : lines) {
            assertTrue(line, line.startsWith("Error: "));
        }
        assertTrue(shell.err(), shell.err().contains("--src") && shell.err().contains("bad port")
                && shell.err().contains("device id") && shell.err().contains("SLEEPING")
                && shell.err().contains("--queue") && shell.err().contains("intent id")
                && shell.err().contains("bad migration id '0': ids start at 1")
                && shell.err().contains("bad handoff id '-1'"));
        assertTrue("no service was called: " + calls, calls.isEmpty());
        assertEquals("", shell.out());
    }

    @Test
    public void aRefusalOfTheServiceIsOneErrorLine() {
        answers.put("resume", FlowBufException.notFound("no paused flow with filter x on s1"));
        ResumeCommand resume = new ResumeCommand();
        resume.device = "device:s1";
        resume.outPort = "3";
        resume.buffer = "b1";
        resume.all = true;
        resume.doExecute();
        assertEquals("Error: no paused flow with filter x on s1", shell.err().trim());
        assertTrue(calls.get(0), calls.get(0).contains("Optional[b1]"));
    }

    @Test
    public void bufferTasksCallTheServiceWithParsedArguments() {
        answers.put("createBuffer", B1);
        answers.put("moveBuffer", B1.withMode(VportMode.RX_TX));
        BufferCreateCommand create = new BufferCreateCommand();
        create.device = "device:s1";
        create.bufferId = "b1";
        create.state = "buffering";
        create.capacityPackets = 500;
        create.doExecute();
        BufferMoveCommand move = new BufferMoveCommand();
        move.device = "device:s1";
        move.bufferId = "b1";
        move.state = "FORWARDING";
        move.doExecute();
        BufferRemoveCommand remove = new BufferRemoveCommand();
        remove.device = "device:s1";
        remove.bufferId = "b1";
        remove.discard = true;
        remove.doExecute();
        String create0 = calls.get(0);
        assertTrue(create0, create0.startsWith("createBuffer[device:s1, b1, org.flowbuf.rest, ")
                && create0.contains("packets=500") && create0.endsWith("BUFFERING]"));
        assertEquals("moveBuffer[device:s1, b1, org.flowbuf.rest, FORWARDING]", calls.get(1));
        assertEquals("removeBuffer[device:s1, b1, org.flowbuf.rest, true]", calls.get(2));
        assertTrue(shell.out(), shell.out().contains("b1 is FORWARDING"));
    }

    @Test
    public void armAndDisarmCallTheServiceAndSayWhatHappened() {
        BufferArmCommand arm = new BufferArmCommand();
        arm.device = "device:s1";
        arm.triggerId = "bell";
        arm.bufferId = "b1";
        arm.state = "forwarding";
        arm.doExecute();
        arm.purgeToReport = true;
        arm.doExecute();
        BufferDisarmCommand disarm = new BufferDisarmCommand();
        disarm.device = "device:s1";
        disarm.triggerId = "bell";
        answers.put("disarm", Disarmed.nothingArmed());
        disarm.doExecute();
        answers.put("disarm", Disarmed.stillArmed());
        disarm.doExecute();
        answers.put("disarm", Disarmed.fired(TriggerFire.of(true, TriggerFire.ReportSync.SYNCED,
                                                            12)));
        disarm.doExecute();
        assertEquals(List.of("armMove[device:s1, bell, b1, org.flowbuf.rest, FORWARDING, false]",
                             "armMove[device:s1, bell, b1, org.flowbuf.rest, FORWARDING, true]",
                             "disarm[device:s1, bell, org.flowbuf.rest]",
                             "disarm[device:s1, bell, org.flowbuf.rest]",
                             "disarm[device:s1, bell, org.flowbuf.rest]"), calls);
        assertEquals("the next packet into bell moves b1 to FORWARDING\n"
                             + "the next packet into bell moves b1 to FORWARDING, purged to its "
                             + "report first\n"
                             + "nothing armed\n"
                             + "disarmed\n"
                             + "it had fired: moved, report SYNCED, 12 packets purged\n", shell.out());
        arm.state = "SLEEPING";
        arm.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: bad state 'SLEEPING'"));
        assertEquals("a bad state calls nothing", 5, calls.size());
    }

    @Test
    public void aWithdrawCallsTheServiceWithTheOwner() {
        IntentWithdrawCommand withdraw = new IntentWithdrawCommand();
        withdraw.intentId = "7";
        withdraw.owner = "app1";
        withdraw.doExecute();
        assertEquals(List.of("withdraw[7, app1]"), calls);
        assertTrue(shell.out(), shell.out().contains("withdrawn 7"));
    }

    @Test
    public void statisticsOfAnUnknownBufferAreAnError() {
        answers.put("getStatistics", Optional.empty());
        BufferStatsCommand stats = new BufferStatsCommand();
        stats.device = "device:s1";
        stats.bufferId = "b9";
        stats.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: no buffer b9"));
    }

    @Test
    public void intentsAndCompletersShowWhatTheServicesKnow() {
        new IntentsListCommand().doExecute();
        assertTrue(shell.out(), shell.out().contains("PAUSE") && shell.out().contains("10.0.0.1/32"));
        assertEquals(List.of("device:s1"), new DeviceIdCompleter().choices());
        assertEquals(List.of("b1"), new BufferIdCompleter().choices());
        assertEquals(List.of("7"), new IntentIdCompleter().choices());
        assertTrue(new BufferStateCompleter().choices().contains("STORING"));
    }

    @Test
    public void nfvMigrationsBeginAndCompleteOrRefuseBadActions() {
        NfvMigration held = new NfvMigration(1, S1, PortNumber.portNumber(1),
                                             FlowFilter.builder().build(), BufferId.bufferId("b1"),
                                             IntentId.intentId(3), NfvMigration.State.HOLDING, null);
        answers.put("begin", held);
        answers.put("complete", held.released(NfvMigration.State.COMPLETED,
                                              PortNumber.portNumber(3)));
        NfvMigrateCommand begin = new NfvMigrateCommand();
        begin.action = "begin";
        begin.deviceOrId = "device:s1";
        begin.port = "1";
        begin.all = true;
        begin.doExecute();
        NfvMigrateCommand complete = new NfvMigrateCommand();
        complete.action = "complete";
        complete.deviceOrId = "1";
        complete.port = "3";
        complete.doExecute();
        NfvMigrateCommand bad = new NfvMigrateCommand();
        bad.action = "teleport";
        bad.doExecute();
        assertEquals(List.of("begin", "complete"),
                     calls.stream().map(c -> c.split("\\[")[0]).collect(
                             java.util.stream.Collectors.toList()));
        assertTrue(shell.out(), shell.out().contains("HOLDING") && shell.out().contains("COMPLETED")
                && shell.out().contains("-> port 3"));
        assertTrue(shell.err(), shell.err().startsWith("Error: action must be"));
    }

    /** The plan the lmmStart() command asks for, with a buffering mode. */
    private static HandoffPlan handoffPlan(HandoffPlan.Buffering buffering) {
        return HandoffPlan.builder()
                .downlink(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build())
                .buffering(buffering)
                .anchor(ConnectPoint.deviceConnectPoint("device:sa/1"),
                        ConnectPoint.deviceConnectPoint("device:sa/2"),
                        ConnectPoint.deviceConnectPoint("device:sa/3"))
                .source(ConnectPoint.deviceConnectPoint("device:s1/1"),
                        ConnectPoint.deviceConnectPoint("device:s1/3"))
                .target(ConnectPoint.deviceConnectPoint("device:s2/1"),
                        ConnectPoint.deviceConnectPoint("device:s2/3"),
                        ConnectPoint.deviceConnectPoint("device:s2/2")).build();
    }

    private static LmmHandoffCommand lmmStart() {
        LmmHandoffCommand start = new LmmHandoffCommand();
        start.action = "start";
        start.ueOrId = "10.0.0.10";
        start.anchor = "device:sa/1,device:sa/2,device:sa/3";
        start.source = "device:s1/1,device:s1/3";
        start.target = "device:s2/1,device:s2/3,device:s2/2";
        return start;
    }

    @Test
    public void lmmHandoffsStartFromPortsAndAttachOrRefuseBadPorts() {
        LmmHandoffCommand start = lmmStart();
        HandoffPlan plan = handoffPlan(HandoffPlan.Buffering.FLOWBUF);
        LmmHandoff detached = new LmmHandoff(1, plan, LmmHandoff.State.DETACHED,
                                             BufferId.bufferId("lmm-1-src"),
                                             BufferId.bufferId("lmm-1-fwd"),
                                             BufferId.bufferId("lmm-1-new"), 0, null);
        answers.put("start", detached);
        answers.put("attach", detached.with(LmmHandoff.State.ATTACHED));
        start.doExecute();
        LmmHandoffCommand attach = new LmmHandoffCommand();
        attach.action = "attach";
        attach.ueOrId = "1";
        attach.doExecute();
        LmmHandoffCommand badPorts = new LmmHandoffCommand();
        badPorts.action = "start";
        badPorts.ueOrId = "10.0.0.10";
        badPorts.anchor = "device:sa/1,device:sa/2";
        badPorts.doExecute();
        assertEquals(List.of("start", "attach"),
                     calls.stream().map(c -> c.split("\\[")[0]).collect(
                             java.util.stream.Collectors.toList()));
        assertTrue(calls.get(0), calls.get(0).contains("ipv4Dst=10.0.0.10/32"));
        assertTrue(shell.out(), shell.out().contains("DETACHED device:s1 -> device:s2 buffers "
                                                 + "lmm-1-src,lmm-1-fwd,lmm-1-new")
                && shell.out().contains("ATTACHED"));
        assertTrue(shell.err(), shell.err().startsWith("Error: --anchor needs 3 comma-separated ports"));
    }

    @Test
    public void lmmHandoffsTakeTheControllerBufferingBaselineOrRefuseAnUnknownMode() {
        LmmHandoffCommand start = lmmStart();
        start.buffering = "bogus";
        start.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: --buffering is flowbuf, none or controller"));
        assertTrue("a bad mode sends nothing", calls.isEmpty());
        start.buffering = "controller";
        start.noBuffering = true;
        start.doExecute();
        assertTrue("conflicting options send nothing", calls.isEmpty());
        start.noBuffering = false;
        HandoffPlan plan = handoffPlan(HandoffPlan.Buffering.CONTROLLER);
        answers.put("start", new LmmHandoff(1, plan, LmmHandoff.State.DETACHED, null, null, null,
                                            0, null));
        start.doExecute();
        assertEquals(1, calls.size());
        assertTrue(shell.out(), shell.out().contains("DETACHED device:s1 -> device:s2"));
        assertTrue(calls.get(0), calls.get(0).startsWith("start")
                && calls.get(0).contains("buffering=CONTROLLER"));
    }

    @Test
    public void ccUploadsAreRequestedAndDownloaded() {
        CcUpload u = new CcUpload(1, S1, PortNumber.portNumber(1), FlowFilter.builder().build(),
                                  BufferId.bufferId("b1"), CcUpload.State.UPLOADING, null);
        answers.put("requestUpload", u);
        answers.put("download", u.with(CcUpload.State.SERVED, PortNumber.portNumber(3)));
        CcUploadCommand request = new CcUploadCommand();
        request.action = "request";
        request.deviceOrId = "device:s1";
        request.port = "1";
        request.src = "10.0.0.1";
        request.doExecute();
        CcUploadCommand download = new CcUploadCommand();
        download.action = "download";
        download.deviceOrId = "1";
        download.port = "3";
        download.doExecute();
        CcUploadCommand bad = new CcUploadCommand();
        bad.action = "stored";
        bad.deviceOrId = "one";
        bad.doExecute();
        assertTrue(calls.toString(), calls.get(0).startsWith("requestUpload[device:s1, 1, ")
                && calls.get(1).equals("download[1, 3]") && calls.size() == 2);
        assertTrue(shell.out(), shell.out().contains("UPLOADING") && shell.out().contains("SERVED"));
        assertTrue(shell.err(), shell.err().startsWith("Error: bad upload id"));
    }

    @Test
    public void appListingsWithJsonAreOneRestArray() throws Exception {
        NfvMigration held = new NfvMigration(1, S1, PortNumber.portNumber(1),
                                             FlowFilter.builder().build(), BufferId.bufferId("b1"),
                                             IntentId.intentId(3), NfvMigration.State.HOLDING, null);
        CcUpload upload = new CcUpload(1, S1, PortNumber.portNumber(1),
                                       FlowFilter.builder().build(), BufferId.bufferId("b1"),
                                       CcUpload.State.UPLOADING, null);
        LmmHandoff handoff = new LmmHandoff(1, handoffPlan(HandoffPlan.Buffering.FLOWBUF),
                                            LmmHandoff.State.DETACHED, null, null, null, 0, null);
        answers.put("migrations", List.of(held, held.released(NfvMigration.State.COMPLETED,
                                                              PortNumber.portNumber(3))));
        answers.put("uploads", List.of(upload, upload.with(CcUpload.State.SERVED,
                                                           PortNumber.portNumber(3))));
        answers.put("handoffs", List.of(handoff, handoff.with(LmmHandoff.State.ATTACHED)));
        NfvMigrateCommand migrations = new NfvMigrateCommand();
        migrations.action = "list";
        CcUploadCommand uploads = new CcUploadCommand();
        uploads.action = "list";
        LmmHandoffCommand handoffs = new LmmHandoffCommand();
        handoffs.action = "list";
        for (FlowBufCommand list : List.<FlowBufCommand>of(migrations, uploads, handoffs)) {
            shell.resetOut();
            json(list);
            list.doExecute();
            JsonNode array = new ObjectMapper().readTree(shell.out());
            assertTrue(shell.out(), array.isArray());
            assertEquals(shell.out(), 2, array.size());
            assertEquals(1, array.get(0).get("id").asLong());
        }
        assertEquals(List.of("migrations", "uploads", "handoffs"), calledMethods());
        assertEquals("", shell.err());
    }

    @Test
    public void vportsEventsAndReconcileArePrinted() {
        answers.put("getVports", List.of(new Vport(VportId.vportId("vp100"), 100,
                                                   BufferId.bufferId("b1"), VportMode.RX),
                                         new Vport(VportId.vportId("vp101"), 101, null,
                                                   VportMode.NONE)));
        answers.put("getEvents", List.of(new BufferEvent(BufferEvent.Type.BUFFER_ADDED, B1)));
        answers.put("reconcile", List.of(new BufferEvent(BufferEvent.Type.BUFFER_ADOPTED, B1)));
        VportsListCommand vports = new VportsListCommand();
        vports.device = "device:s1";
        vports.doExecute();
        BufferEventsCommand events = new BufferEventsCommand();
        events.device = "device:s1";
        events.bufferId = "b1";
        events.doExecute();
        ReconcileCommand reconcile = new ReconcileCommand();
        reconcile.device = "device:s1";
        reconcile.doExecute();
        String printed = shell.out();
        assertTrue(printed, printed.contains("vp100") && printed.contains("b1")
                && printed.contains("vp101") && printed.contains("BUFFER_ADDED")
                && printed.contains("BUFFER_ADOPTED b1") && printed.contains("1 change(s)"));
        VportsListCommand bad = new VportsListCommand();
        bad.device = "s1";
        bad.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: bad device id"));
        assertEquals(List.of("getVports", "getEvents", "reconcile"),
                     calls.stream().map(c -> c.split("\\[")[0]).collect(
                             java.util.stream.Collectors.toList()));
    }

    private static final DeviceId ENB1 = DeviceId.deviceId("device:s1");
    private static final DeviceId ENB2 = DeviceId.deviceId("device:s2");

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    /** The plan fmmOpen() asks for: three cells in order, s1 serving. */
    private static FmmPlan fmmPlan(int window) {
        return new FmmPlan(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build(),
                           cp("device:sa/1"),
                           List.of(new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"),
                                                    cp("device:s1/2")),
                                   new FmmPlan.Cell(cp("device:sa/3"), cp("device:s2/1"),
                                                    cp("device:s2/2")),
                                   new FmmPlan.Cell(cp("device:sa/4"), cp("device:s3/1"),
                                                    cp("device:s3/2"))),
                           ENB1, window);
    }

    private static FmmSession fmmSession(long id) {
        FmmPlan plan = fmmPlan(FmmPlan.DEFAULT_WINDOW_PACKETS);
        return new FmmSession(id, plan, FmmSession.State.ATTACHED, ENB1, null,
                              Map.of(ENB1, BufferId.bufferId("fmm-" + id + "-s1"),
                                     ENB2, BufferId.bufferId("fmm-" + id + "-s2")),
                              7, FmmSession.Counters.NONE, null);
    }

    private static FmmSessionCommand fmm(String action, String ueOrId, String target) {
        FmmSessionCommand command = new FmmSessionCommand();
        command.action = action;
        command.ueOrId = ueOrId;
        command.target = target;
        return command;
    }

    private static FmmSessionCommand fmmOpen() {
        FmmSessionCommand open = fmm("open", "10.0.0.10", null);
        open.anchorIn = "device:sa/1";
        open.cells = new ArrayList<>(List.of("device:sa/2,device:s1/1,device:s1/2",
                                             "device:sa/3,device:s2/1,device:s2/2",
                                             "device:sa/4,device:s3/1,device:s3/2"));
        open.serving = "device:s1";
        return open;
    }

    private List<String> calledMethods() {
        return calls.stream().map(c -> c.split("\\[")[0]).collect(Collectors.toList());
    }

    @Test
    public void fmmOpenBuildsThePlanFromTheCellsInOrderWithTheDefaultOrGivenWindow() {
        answers.put("open", fmmSession(1));
        fmmOpen().doExecute();
        FmmSessionCommand windowed = fmmOpen();
        windowed.window = 64;
        windowed.doExecute();
        assertEquals(List.of("open", "open"), calledMethods());
        FmmPlan asked = (FmmPlan) arguments.get(0)[0];
        assertEquals(fmmPlan(FmmPlan.DEFAULT_WINDOW_PACKETS), asked);
        assertEquals(IpPrefix.valueOf("10.0.0.10/32"), asked.downlink().ipv4Dst().get());
        assertTrue("no in-port on the downlink", asked.downlink().inPort().isEmpty());
        assertEquals(cp("device:sa/1"), asked.anchorIn());
        assertEquals(List.of(ENB1, ENB2, DeviceId.deviceId("device:s3")),
                     asked.cells().stream().map(FmmPlan.Cell::enb).collect(Collectors.toList()));
        assertEquals(cp("device:sa/3"), asked.cells().get(1).anchorPort());
        assertEquals(cp("device:s2/2"), asked.cells().get(1).ue());
        assertEquals(ENB1, asked.serving());
        assertEquals(FmmPlan.DEFAULT_WINDOW_PACKETS, asked.windowPackets());
        assertEquals(fmmPlan(64), arguments.get(1)[0]);
        assertEquals("1 ATTACHED serving device:s1 group 7 handoffs 0 unsynced 0 purged 0"
                             + " released-on-signal 0 held-on-signal 0\n"
                             + "1 ATTACHED serving device:s1 group 7 handoffs 0 unsynced 0 purged 0"
                             + " released-on-signal 0 held-on-signal 0\n",
                     shell.out());
        assertEquals("", shell.err());
    }

    @Test
    public void fmmHandoffAttachAndCloseCallTheServiceWithTheParsedIdAndTarget() {
        FmmSession open = fmmSession(12);
        answers.put("handoff", open.detachedTowards(ENB2));
        answers.put("attach", open.attachedTo(ENB2, FmmSession.Counters.NONE.plusHandoff(
                true, 5, 300, false, false)));
        answers.put("close", open.ended(FmmSession.State.CLOSED, null));
        fmm("handoff", "12", "device:s2").doExecute();
        fmm("attach", "12", null).doExecute();
        fmm("close", "12", null).doExecute();
        assertEquals(List.of("handoff[12, device:s2]", "attach[12]", "close[12]"), calls);
        assertEquals(ENB2, arguments.get(0)[1]);
        assertEquals(12L, arguments.get(1)[0]);
        assertEquals("12 DETACHED serving device:s1 -> device:s2 group 7 handoffs 0 unsynced 0 purged 0"
                             + " released-on-signal 0 held-on-signal 0\n"
                             + "12 ATTACHED serving device:s2 group 7 handoffs 1 unsynced 0 purged 5"
                             + " released-on-signal 0 held-on-signal 0\n"
                             + "12 CLOSED serving device:s1 group 7 handoffs 0 unsynced 0 purged 0"
                             + " released-on-signal 0 held-on-signal 0\n",
                     shell.out());
        assertEquals("", shell.err());
    }

    @Test
    public void aFailedFmmCloseShowsWhatFailed() {
        answers.put("close", fmmSession(3).ended(FmmSession.State.FAILED, "buffer fmm-3-s2 stayed"));
        fmm("close", "3", null).doExecute();
        assertEquals("3 FAILED serving device:s1 group 7 handoffs 0 unsynced 0 purged 0 "
                             + "released-on-signal 0 held-on-signal 0 (buffer fmm-3-s2 stayed)\n",
                     shell.out());
    }

    @Test
    public void fmmSessionsAreListedAsLinesOrAsTheRestJson() throws Exception {
        answers.put("sessions", List.of(fmmSession(1), fmmSession(2).detachedTowards(ENB2)));
        fmm("list", null, null).doExecute();
        assertEquals("1 ATTACHED serving device:s1 group 7 handoffs 0 unsynced 0 purged 0"
                             + " released-on-signal 0 held-on-signal 0\n"
                             + "2 DETACHED serving device:s1 -> device:s2 group 7 handoffs 0 unsynced 0 "
                             + "purged 0 released-on-signal 0 held-on-signal 0\n", shell.out());
        shell.resetOut();
        FmmSessionCommand list = fmm("list", null, null);
        json(list);
        list.doExecute();
        JsonNode array = new ObjectMapper().readTree(shell.out());
        assertTrue(shell.out(), array.isArray());
        assertEquals(2, array.size());
        assertEquals(1, array.get(0).get("id").asLong());
        assertEquals("DETACHED", array.get(1).get("state").asText());
        assertEquals("device:s2", array.get(1).get("target").asText());
        shell.resetOut();
        answers.put("sessions", List.of());
        FmmSessionCommand none = fmm("list", null, null);
        json(none);
        none.doExecute();
        assertEquals(0, new ObjectMapper().readTree(shell.out()).size());
        assertEquals(List.of("sessions", "sessions", "sessions"), calledMethods());
        assertEquals("", shell.err());
    }

    @Test
    public void anFmmOpenPrintsTheRestJsonOfTheSession() throws Exception {
        answers.put("open", fmmSession(1));
        FmmSessionCommand open = fmmOpen();
        json(open);
        open.doExecute();
        JsonNode session = new ObjectMapper().readTree(shell.out());
        assertEquals(1, session.get("id").asLong());
        assertEquals("ATTACHED", session.get("state").asText());
        assertEquals("device:s1", session.get("serving").asText());
        assertEquals(7, session.get("multicastGroup").asInt());
        assertEquals("fmm-1-s2", session.get("buffers").get("device:s2").asText());
        assertEquals(0, session.get("counters").get("handoffs").asLong());
        assertEquals("10.0.0.10/32", session.get("plan").get("downlink").get("ipv4Dst").asText());
        assertEquals("device:sa/3", session.get("plan").get("cells").get(1).get("anchor").asText());
        assertEquals(FmmPlan.DEFAULT_WINDOW_PACKETS, session.get("plan").get("windowPackets").asInt());
    }

    /** A bad flowbuf-fmm command line and a part of the one error line it must print. */
    private static Map.Entry<FmmSessionCommand, String> badFmm(FmmSessionCommand command,
                                                               String message) {
        return Map.entry(command, message);
    }

    private static FmmSessionCommand fmmOpen(Consumer<FmmSessionCommand> change) {
        FmmSessionCommand open = fmmOpen();
        change.accept(open);
        return open;
    }

    @Test
    public void fmmOpenWithAnAttachSignalPortAsksForTheUesUdpDatagram() {
        answers.put("open", fmmSession(1));
        fmmOpen(c -> c.attachSignalPort = 9).doExecute();
        FlowFilter signal = ((FmmPlan) arguments.get(0)[0]).attachSignal().orElseThrow();
        assertEquals(FlowFilter.builder().ipv4Src(IpPrefix.valueOf("10.0.0.10/32")).ipProto(17)
                             .l4DstPort(9).build(), signal);
    }

    @Test
    public void fmmOpenWithUeReportsAsksForThemOnTheSignal() {
        answers.put("open", fmmSession(1));
        fmmOpen(c -> {
            c.attachSignalPort = 9;
            c.ueReports = true;
        }).doExecute();
        FmmPlan asked = (FmmPlan) arguments.get(0)[0];
        assertTrue(asked.ueReports());
        assertTrue(asked.attachSignal().isPresent());
    }

    @Test
    public void badFmmInputIsOneClearErrorLineAndNoCall() {
        List<Map.Entry<FmmSessionCommand, String>> table = List.of(
                badFmm(fmmOpen(c -> c.ueOrId = null), "Error: open needs the UE's IPv4 address"),
                badFmm(fmmOpen(c -> c.ueOrId = "10.0.0.300"), "Error: ue-address: bad IPv4 prefix "
                        + "'10.0.0.300'"),
                badFmm(fmmOpen(c -> c.ueOrId = "10.0.0.0/24"), "Error: the downlink filter needs the "
                        + "UE's address as a /32"),
                badFmm(fmmOpen(c -> c.ueOrId = "2001:db8::1"), "Error: ipv4Dst must be an IPv4 prefix"),
                badFmm(fmmOpen(c -> c.serving = null), "Error: open needs --serving"),
                badFmm(fmmOpen(c -> c.serving = "s1"), "Error: bad device id 's1'"),
                badFmm(fmmOpen(c -> c.serving = "device:s9"), "Error: the serving eNB device:s9 is not "
                        + "one of the cells"),
                badFmm(fmmOpen(c -> c.anchorIn = null), "Error: --anchor-in needs 1 comma-separated"),
                badFmm(fmmOpen(c -> c.cells.set(1, "device:sa/3,device:s2/1")),
                       "Error: --cell needs 3 comma-separated ports"),
                badFmm(fmmOpen(c -> c.cells.set(1, "device:sa/3,device:s2/x,device:s2/2")),
                       "Error: --cell: bad port 'device:s2/x'"),
                badFmm(fmmOpen(c -> c.cells.set(1, "device:sa/3,device:s2,device:s2/2")),
                       "Error: --cell: bad port 'device:s2'"),
                badFmm(fmmOpen(c -> c.cells.set(1, "device:sa/3,device:s2/1,device:s3/2")),
                       "Error: cell ports device:s2/1 and device:s3/2 lie on different devices"),
                badFmm(fmmOpen(c -> c.cells = List.of("device:sa/2,device:s1/1,device:s1/2")),
                       "Error: FMM needs at least two cells, got 1"),
                badFmm(fmmOpen(c -> c.cells = null), "Error: FMM needs at least two cells, got 0"),
                badFmm(fmmOpen(c -> c.cells.set(1, "device:sa/2,device:s2/1,device:s2/2")),
                       "Error: anchor port device:sa/2 leads to two cells"),
                badFmm(fmmOpen(c -> c.window = 0), "Error: windowPackets must be 1 to 1048576, got 0"),
                badFmm(fmmOpen(c -> c.attachSignalPort = 70000), "Error: l4DstPort must be "
                        + "between 0 and 65535, got 70000"),
                badFmm(fmmOpen(c -> c.ueReports = true), "Error: ueReports needs an attachSignal"),
                badFmm(fmm("handoff", "1", null), "Error: handoff needs a session id and a target eNB"),
                badFmm(fmm("handoff", null, null), "Error: handoff needs a session id and a target eNB"),
                badFmm(fmm("handoff", "one", "device:s2"), "Error: bad session id 'one'"),
                badFmm(fmm("handoff", "1", "s2"), "Error: bad device id 's2'"),
                badFmm(fmm("attach", "1.5", null), "Error: bad session id '1.5'"),
                badFmm(fmm("attach", null, null), "Error: attach needs a session id"),
                badFmm(fmm("close", "x", null), "Error: bad session id 'x'"),
                badFmm(fmm("close", null, null), "Error: close needs a session id"),
                badFmm(fmm("teleport", "1", null), "Error: action must be list, open, handoff, attach "
                        + "or close, not teleport"));
        for (Map.Entry<FmmSessionCommand, String> bad : table) {
            shell.resetErr();
            bad.getKey().doExecute();
            String line = shell.err();
            assertTrue(bad.getValue() + " <- " + line, line.startsWith(bad.getValue()));
            assertEquals("one line: " + line, 1, line.trim().split("\n").length);
            assertTrue(bad.getValue() + " called " + calls, calls.isEmpty());
        }
        assertEquals("", shell.out());
    }

    @Test
    public void anFmmRefusalOfTheServiceIsOneErrorLine() {
        answers.put("handoff", FlowBufException.invalid("device:s9 is not a cell of session 1"));
        answers.put("attach", FlowBufException.conflict("session 1 has no handoff started"));
        fmm("handoff", "1", "device:s9").doExecute();
        fmm("attach", "1", null).doExecute();
        assertEquals("Error: device:s9 is not a cell of session 1\n"
                             + "Error: session 1 has no handoff started\n", shell.err());
        assertEquals(List.of("handoff[1, device:s9]", "attach[1]"), calls);
        assertEquals("", shell.out());
    }
}
