/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.gnb.GnbService;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.UpfQosService;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.FlowBufCore;
import org.flowbuf.app.apps.fba.FbaTuner;
import org.flowbuf.app.apps.gnb.GnbManager;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.rest.StandaloneServices;
import org.flowbuf.app.southbound.ConfiguredAgentDirectory;
import org.flowbuf.app.southbound.DefaultBufferAgentClient;
import org.flowbuf.app.store.InMemoryBufferStore;
import org.flowbuf.app.upf.InMemoryUpfStore;
import org.flowbuf.app.upf.UpfManager;
import org.flowbuf.host.fba.PbswitchAdminControl;
import org.flowbuf.host.netcfg.Netcfg;
import org.flowbuf.host.netcfg.SwitchEntry;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeChannels;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.host.rest.RestServer;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The embedded host process: connects to every switch of the netcfg,
 * becomes primary, pushes the FlowBuf pipeline and base rules, assembles the
 * Buffer Service core and serves the REST API until it is stopped.
 */
public final class FlowBufHost implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FlowBufHost.class);
    /** The same application name the ONOS app registers. */
    static final String APP_NAME = "org.flowbuf.app";
    /** Election id of the host; higher than any test client's default. */
    static final long ELECTION_ID = 10;
    /** Wait between attempts to take a lost switch back. */
    static final Duration RESYNC_RETRY = Duration.ofMillis(200);

    /** Round trips that warm the P4Runtime call path up (JIT), at start. */
    static final int WARM_UP_CALLS = 5000;

    private final Map<DeviceId, SwitchSession> switches;
    private final ConfiguredAgentDirectory agents;
    private final RestServer rest;
    private final List<FbaTuner> fba;
    private final SwitchResync resync;
    private final CongestionWiring congestion;
    private final HhWiring hh;
    private final PlacementWiring placement;
    private final UpfQosWiring qos;

    private FlowBufHost(Map<DeviceId, SwitchSession> switches, ConfiguredAgentDirectory agents,
                        RestServer rest, List<FbaTuner> fba, SwitchResync resync,
                        CongestionWiring congestion, HhWiring hh, PlacementWiring placement,
                        UpfQosWiring qos) {
        this.switches = switches;
        this.agents = agents;
        this.rest = rest;
        this.fba = fba;
        this.resync = resync;
        this.congestion = congestion;
        this.hh = hh;
        this.placement = placement;
        this.qos = qos;
    }

    /**
     * Starts the host.
     *
     * @param options options
     * @return the running host
     * @throws IOException when a file cannot be read
     */
    static FlowBufHost start(HostOptions options) throws IOException {
        Netcfg netcfg = Netcfg.read(options.netcfg);
        P4InfoIndex p4info = P4InfoIndex.read(options.p4info);
        ByteString deviceConfig = options.deviceConfig.isPresent()
                ? ByteString.copyFrom(Files.readAllBytes(options.deviceConfig.get()))
                : ByteString.EMPTY;
        ApplicationId appId = new DefaultApplicationId(1, APP_NAME);
        Duration timeout = Duration.ofSeconds(options.connectTimeoutSeconds);
        Map<DeviceId, SwitchSession> switches = new LinkedHashMap<>();
        // Bearers changed through REST live in this host's memory (the netcfg file is read once).
        GnbManager gnb = new GnbManager(appId, new GnbTables(switches), switches::containsKey,
                                        (device, section) -> { });
        try {
            for (SwitchEntry sw : netcfg.switches()) {
                SwitchSession session = connect(sw, p4info);
                switches.put(sw.deviceId(), session);
                boolean pushed = session.start(deviceConfig, timeout);
                session.insertMissing(BaseRules.of(appId, sw, netcfg.hosts(), netcfg.links()));
                sw.fb().ifPresent(fb -> FbTables.write(session, appId, fb));
                sw.gnb().ifPresent(section -> gnb.configure(sw.deviceId(), Optional.of(section)));
                LOG.info("{}: primary, pipeline {}, base rules written", sw.deviceId(),
                         pushed ? "pushed" : "already running (tables kept)");
            }
        } catch (RuntimeException e) {
            switches.values().forEach(SwitchSession::close);
            throw e;
        }
        switches.values().stream().findFirst().ifPresent(FlowBufHost::warmUp);
        Set<DeviceId> buffered = netcfg.switches().stream().filter(s -> s.flowbuf().isPresent())
                .map(SwitchEntry::deviceId).collect(Collectors.toSet());
        ConfiguredAgentDirectory agents = new ConfiguredAgentDirectory(
                APP_NAME, netcfg::flowbuf, () -> buffered, new PlainChannelFactory(),
                id -> true, DefaultBufferAgentClient.DEFAULT_DEADLINE);
        P4RuntimeSteeringWriter rules = new P4RuntimeSteeringWriter(appId, switches);
        // Every buffer and intent event at DEBUG: at INFO, 32 REST clients
        // (make bench-load) wrote 85 MB of log in 75 s. The REST API keeps
        // each buffer's latest events; -Dorg.slf4j.simpleLogger.log.
        // org.flowbuf.host.FlowBufHost=debug prints them all.
        FlowBufCore core = new FlowBufCore(agents, new InMemoryBufferStore(), rules,
                                           e -> LOG.debug("{}", e), e -> LOG.debug("{}", e));
        for (DeviceId device : buffered) {
            reconcile(core, device);
            adoptRules(core, switches.get(device));
        }
        P4RuntimeMulticastWriter groups = new P4RuntimeMulticastWriter(switches);
        StandaloneServices services =
                StandaloneServices.forCore(core, rules, groups,
                                           new P4RuntimePacketEmitter(switches));
        InMemoryUpfStore upfStore = new InMemoryUpfStore();
        P4RuntimeUpfWriter upfWriter = new P4RuntimeUpfWriter(switches);
        UpfManager upf = new UpfManager(appId, upfStore, upfWriter, switches::containsKey,
                                        core.intents(), core.buffers());
        services.add(UpfService.class, upf);
        services.add(GnbService.class, gnb);
        CongestionWiring congestion = new CongestionWiring(appId, netcfg, switches, p4info,
                                                           core.buffers(), core.intents());
        services.add(CongestionService.class, congestion.manager());
        HhWiring hh = new HhWiring(appId, netcfg.heavyHitters(), switches, p4info);
        services.add(HeavyHitterService.class, hh.manager());
        PlacementWiring placement = new PlacementWiring(
                appId, netcfg.hybrid(), switches, p4info, upfStore, upfWriter,
                new P4RuntimePacketEmitter(switches), core.intents(), core.buffers(), hh.manager(),
                netcfg.hosts());
        services.add(HybridPlacementService.class, placement.manager());
        UpfQosWiring qos = new UpfQosWiring(appId, netcfg.upfQos(), upf, hh.manager(), rules,
                                            switches);
        services.add(UpfQosService.class, qos.manager());
        Map<DeviceId, SwitchEntry> entries = netcfg.switches().stream()
                .collect(Collectors.toMap(SwitchEntry::deviceId, sw -> sw));
        SwitchResync resync = new SwitchResync(device -> {
            SwitchEntry sw = entries.get(device);
            takeBack(switches.get(device), sw, buffered.contains(device), core,
                     () -> BaseRules.of(appId, sw, netcfg.hosts(), netcfg.links()),
                     appId, deviceConfig, timeout);
            restoreApplications(device, groups, rules);
            restoreTables(switches.get(device), sw, appId, upf, gnb);
            congestion.takeBack(switches.get(device));
            hh.prepare(switches.get(device));
            placement.prepare(device);
        }, RESYNC_RETRY);
        switches.forEach((device, session) -> session.onDisconnect(() -> resync.lost(device)));
        ControllerBufferingService controllerBuffering =
                services.get(ControllerBufferingService.class);
        // A PROBING flow's probe is the congestion service's, an end marker the hybrid
        // placement's; the rest may be a held flow's.
        switches.forEach((device, session) -> session.onPacketIn(
                (port, frame) -> {
                    if (!congestion.manager().probePacketIn(device, frame)
                            && !placement.packetIn(device, frame)) {
                        controllerBuffering.packetIn(device, PortNumber.portNumber(port), frame);
                    }
                }));
        RestServer rest = RestServer.start(options.listen, services, netcfg.topologyJson());
        return new FlowBufHost(switches, agents, rest, startFba(netcfg), resync, congestion,
                               hh, placement, qos);
    }

    /**
     * Takes a switch back after its session was lost: primary again, the
     * pipeline pushed when the switch lost it (a restart), then the buffers
     * reconciled with its agent (in-process buffers died with the switch:
     * they are re-created empty, each with a BUFFER_RECREATED event, so the
     * loss is reported, not hidden), then the base rules and the steering
     * rules of every installed intent written where missing: a paused flow
     * is held again, a resumed one replayed, the direct path forwards.
     */
    private static void takeBack(SwitchSession session, SwitchEntry sw, boolean buffered,
                                 FlowBufCore core, Supplier<List<FlowRule>> baseRules,
                                 ApplicationId appId, ByteString deviceConfig, Duration timeout) {
        boolean pushed = session.start(deviceConfig, timeout);
        if (buffered) {
            core.buffers().reconcile(sw.deviceId()).forEach(
                    e -> LOG.warn("{}: {} {}{}", sw.deviceId(), e.type(), e.subject().id(),
                                  e.type() == BufferEvent.Type.BUFFER_RECREATED
                                          ? " (what it held is lost)" : ""));
        }
        if (!pushed && buffered) {
            adoptRules(core, session);  // the switch kept rules this host may not know
        }
        session.insertMissing(baseRules.get());
        List<FlowRule> steering = core.installedRules(sw.deviceId()).stream()
                .map(r -> SteeringFlowRules.toFlowRule(appId, sw.deviceId(), r))
                .collect(Collectors.toList());
        if (!steering.isEmpty()) {
            session.insertMissing(steering);
        }
        LOG.warn("{}: taken back: primary, pipeline {}, base rules and {} steering rules written",
                 sw.deviceId(), pushed ? "pushed again" : "kept", steering.size());
    }

    /**
     * Writes again the multicast groups and steering rules the applications
     * wrote (FMM's anchor group and rule, LMM's anchor path, the
     * controller-buffering baseline's punt rules): the groups first, so that
     * no rule sends traffic to a missing group.
     */
    private static void restoreApplications(DeviceId device, P4RuntimeMulticastWriter groups,
                                            P4RuntimeSteeringWriter rules) {
        int groupCount = groups.restore(device);
        int ruleCount = rules.restore(device);
        LOG.warn("{}: {} multicast groups and {} steering rules of the applications in place",
                 device, groupCount, ruleCount);
    }

    /**
     * Writes again what a restarted switch lost besides the Buffer Service's
     * rules: the FB tables and default action its netcfg asks for, and the
     * UPF's interfaces, sessions, applications, firewall rules, queues and
     * meter cells, and the gNodeB's ports, bearers and clone sessions
     * (existing entries are brought up to date, so a switch that
     * kept its tables is left as it was).
     */
    private static void restoreTables(SwitchSession session, SwitchEntry sw, ApplicationId appId,
                                      UpfManager upf, GnbManager gnb) {
        sw.fb().ifPresent(fb -> FbTables.write(session, appId, fb));
        gnb.rewrite(sw.deviceId());
        int upfEntries = upf.reinstall(sw.deviceId());
        LOG.warn("{}: FB tables {}, {} UPF entries written", sw.deviceId(),
                 sw.fb().isPresent() ? "written" : "not configured", upfEntries);
    }

    /** Starts FBA on each switch whose netcfg asks for it. */
    private static List<FbaTuner> startFba(Netcfg netcfg) {
        List<FbaTuner> tuners = new ArrayList<>();
        for (SwitchEntry sw : netcfg.switches()) {
            sw.fba().ifPresent(setting -> {
                FbaTuner tuner = new FbaTuner(sw.deviceId().toString(),
                                              new PbswitchAdminControl(setting.adminAddress()),
                                              setting.period());
                tuner.start();
                tuners.add(tuner);
                LOG.info("{}: FBA every {} ms through {}", sw.deviceId(),
                         setting.period().toMillis(), setting.adminAddress());
            });
        }
        return tuners;
    }

    /** Takes over what the agent holds (a restart of this host loses nothing held). */
    private static void reconcile(FlowBufCore core, DeviceId device) {
        try {
            core.buffers().reconcile(device).forEach(e -> LOG.info("{}: {} {}", device, e.type(),
                                                                      e.subject().id()));
        } catch (FlowBufException e) {
            LOG.warn("{}: buffers not reconciled: {}", device, e.getMessage());
        }
    }

    /**
     * Takes over the steering rules the switch kept from before a restart
     * of this host as INSTALLED intents: a flow paused before the restart
     * resumes by its filter, and the intent list says what the switch does.
     */
    private static void adoptRules(FlowBufCore core, SwitchSession session) {
        try {
            core.adoptRules(session.deviceId(), session.steeringRules()).forEach(
                    i -> LOG.info("{}: adopted {} intent {} of buffer {} from the switch's rules",
                                  session.deviceId(), i.type(), i.id(),
                                  i.bufferId().map(Object::toString).orElse("-")));
        } catch (FlowBufException | P4RuntimeWriteException e) {
            LOG.warn("{}: steering rules not adopted: {}", session.deviceId(), e.getMessage());
        }
    }

    // Round trips on one session, on a thread of their own, so that the JIT
    // (one for all sessions) compiles the path of the Writes before they
    // count: a promotion's two Writes took 1.5 and 0.9 ms at p50 when run
    // interpreted, about 0.7 and 0.2 ms compiled (session 9, make
    // bench-promotion, docs/apps/upf-hybrid.md).
    private static void warmUp(SwitchSession session) {
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            int sent = session.warmUp(WARM_UP_CALLS);
            LOG.info("P4Runtime call path warmed up: {} round trips in {} ms", sent,
                     (System.nanoTime() - start) / 1_000_000);
        }, "flowbuf/p4rt-warm-up");
        t.setDaemon(true);
        t.start();
    }

    private static SwitchSession connect(SwitchEntry sw, P4InfoIndex p4info) {
        ManagedChannel channel = P4RuntimeChannels.plaintext(sw.p4rtHost(), sw.p4rtPort());
        P4RuntimeClient client = new P4RuntimeClient(channel, sw.p4DeviceId(), ELECTION_ID,
                                                     Duration.ofSeconds(5));
        return new SwitchSession(sw.deviceId(), channel, client, p4info);
    }

    /**
     * The REST port.
     *
     * @return TCP port
     */
    int restPort() {
        return rest.port();
    }

    @Override
    public void close() {
        resync.close();
        congestion.close();
        placement.close();
        qos.close();
        hh.close();
        fba.forEach(FbaTuner::close);
        rest.close();
        agents.closeAll();
        switches.values().forEach(SwitchSession::close);
    }

    /**
     * Runs the host until SIGTERM/SIGINT.
     *
     * @param args see {@link HostOptions#USAGE}
     * @throws InterruptedException when interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        HostOptions options;
        try {
            options = HostOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("flowbuf-host: " + e.getMessage());
            System.err.println(HostOptions.USAGE);
            System.exit(2);
            return;
        }
        FlowBufHost host;
        try {
            host = start(options);
        } catch (IOException | RuntimeException e) {
            System.err.println("flowbuf-host: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            host.close();
            stopped.countDown();
        }));
        System.out.println("flowbuf-host: ready, REST at http://" + options.listen.getHostString()
                                   + ":" + host.restPort() + RestServer.CONTEXT);
        stopped.await();
    }
}
