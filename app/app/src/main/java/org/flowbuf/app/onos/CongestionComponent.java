/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.google.common.collect.ImmutableList;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.app.config.CcSettings;
import org.flowbuf.app.config.CongestionAppConfig;
import org.flowbuf.app.config.CongestionLinkConfig;
import org.flowbuf.app.config.NetcfgIdleDelays;
import org.flowbuf.app.congestion.CcDigest;
import org.flowbuf.app.congestion.CcReport;
import org.flowbuf.app.congestion.CongestionManager;
import org.flowbuf.app.congestion.DistributedCcFlowStore;
import org.flowbuf.app.congestion.HostServiceCcHosts;
import org.flowbuf.app.congestion.PathServiceDisjointPathFinder;
import org.flowbuf.app.congestion.ProbeScheduler;
import org.flowbuf.app.congestion.ProbeTimer;
import org.flowbuf.app.congestion.ThresholdPolicy;
import org.flowbuf.app.packet.PacketServiceEmitter;
import org.flowbuf.app.pi.DriverGroups;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.pi.FlowRuleServiceCcWriter;
import org.flowbuf.app.pi.GroupWrites;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.LinkKey;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.link.LinkService;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.net.pi.service.PiTranslationService;
import org.onosproject.net.topology.PathService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.APP_SUBJECT_FACTORY;
import static org.onosproject.net.config.basics.SubjectFactories.LINK_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * Runs the congestion service inside ONOS: hosts from the HostService,
 * disjoint paths from the PathService, idle delays from the netcfg (the
 * embedded host's sections), entries through the FlowRuleService, clone
 * sessions through the GroupService, probes by packet-out and packet-in.
 * ONOS 2.7's P4Runtime driver delivers no digests, so each switch sends its
 * switch-overs as packet-in reports (cc_report_t) as well, and they take the
 * digest's way into the manager. The flows are in ONOS's distributed
 * store (every instance lists them; they outlive an instance and a restart);
 * only the master of a flow's source switch changes a flow (registers,
 * removes, switches it over, probes it), as only a device's master drives
 * its buffers; another instance refuses with a message naming the switch.
 * The factor X is read at each registration and the marker bound at each
 * switch-over, so that a netcfg change applies without a restart.
 */
@Component(immediate = true, service = CongestionService.class)
public final class CongestionComponent implements CongestionService {

    static final int PROCESSOR_PRIORITY = PacketProcessor.advisor(2);

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HostService hostService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PathService pathService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LinkService linkService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiTranslationService translationService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    private final ConfigFactory<ApplicationId, CongestionAppConfig> appConfig =
            new ConfigFactory<>(APP_SUBJECT_FACTORY, CongestionAppConfig.class,
                                CongestionAppConfig.CONFIG_KEY) {
                @Override
                public CongestionAppConfig createConfig() {
                    return new CongestionAppConfig();
                }
            };
    private final ConfigFactory<LinkKey, CongestionLinkConfig> linkConfig =
            new ConfigFactory<>(LINK_SUBJECT_FACTORY, CongestionLinkConfig.class,
                                CongestionLinkConfig.CONFIG_KEY) {
                @Override
                public CongestionLinkConfig createConfig() {
                    return new CongestionLinkConfig();
                }
            };
    private final PacketProcessor packets = this::process;
    private final Clock clock = Clock.systemUTC();
    private ApplicationId appId;
    private ExecutorService worker;
    private ScheduledExecutorService probeThread;
    private OnosCcSwitches switches;
    private CongestionManager manager;
    private MasteredSwitches mastered;
    private DeviceEventClaims claims;
    private NewMasters newMasters;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        netcfgRegistry.registerConfigFactory(appConfig);
        netcfgRegistry.registerConfigFactory(linkConfig);
        worker = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "cc", log));
        probeThread = Executors.newSingleThreadScheduledExecutor(
                groupedThreads("flowbuf", "cc-probes", log));
        // X and the marker bound are read when they are used: a netcfg
        // change applies to the next registration and the next switch-over.
        manager = new CongestionManager(
                appId, new HostServiceCcHosts(hostService),
                new PathServiceDisjointPathFinder(pathService),
                new ThresholdPolicy(() -> settings().factor(),
                                    new NetcfgIdleDelays(netcfgRegistry, this::settings)),
                new FlowRuleServiceCcWriter(flowRuleService, FlowBufManager.DEADLINE), clock,
                s -> log.info("switch-over: {}", s),
                new ProbeScheduler(new PacketServiceEmitter(packetService),
                                   ProbeTimer.of(probeThread), System::nanoTime),
                bufferService, intentService, () -> ImmutableList.copyOf(linkService.getActiveLinks()),
                () -> settings().markerBoundMs(), new DistributedCcFlowStore(storageService),
                mastershipService::isLocalMaster);
        switches = new OnosCcSwitches(appId, new FlowRuleBatches(flowRuleService,
                                                                 FlowBufManager.DEADLINE),
                                      new GroupWrites(appId, groupService,
                                                      new DriverGroups(deviceService),
                                                      FlowBufManager.DEADLINE),
                                      linkService::getDeviceEgressLinks);
        packetService.addProcessor(packets, PROCESSOR_PRIORITY);
        // After an ONOS restart, before ONOS's first read of the switch
        // (takeOn writes them again only once it is available).
        claims = new DeviceEventClaims(
                MasteredSwitches.masteredFlowBuf(mastershipService, pipeconfService), this::entries,
                new PiTranslationClaims(pipeconfService, translationService, flowRuleService),
                "congestion entries");
        deviceService.addListener(claims);
        mastered = new MasteredSwitches(
                deviceService, MasteredSwitches.masteredFlowBuf(mastershipService, pipeconfService),
                worker, this::takeOn, log, "congestion avoidance not prepared");
        mastered.start(true);
        newMasters = new NewMasters();
        mastershipService.addListener(newMasters);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        mastershipService.removeListener(newMasters);
        newMasters.close();
        deviceService.removeListener(claims);
        mastered.stop();
        packetService.removeProcessor(packets);
        probeThread.shutdownNow();
        worker.shutdownNow();
        manager.shutdown();
        netcfgRegistry.unregisterConfigFactory(linkConfig);
        netcfgRegistry.unregisterConfigFactory(appConfig);
        log.info("Stopped");
    }

    /** The app's congestion section, every default where ONOS's netcfg has none. */
    private CcSettings settings() {
        CongestionAppConfig config = netcfgRegistry.getConfig(appId, CongestionAppConfig.class);
        return config != null && config.isValid() ? config.settings()
                : CcSettings.defaults();
    }

    // A switch this instance masters: what congestion.p4 needs, then (when
    // it comes back: after a restart of the switch) the flows' entries again,
    // and what the master runs for the flows that start there.
    private void takeOn(DeviceId device, boolean restore) {
        switches.prepare(device);
        if (restore) {
            int flows = manager.restore(device);
            log.info("{}: {} latency-critical flows written again", device, flows);
        }
        takeOver(device);
    }

    private void takeOver(DeviceId device) {
        int flows = manager.takeOver(device);
        if (flows > 0) {
            log.info("{}: {} probes and merge buffers of latency-critical flows taken over", device, flows);
        }
    }

    /**
     * This instance became a switch's master (the one before died): it writes
     * the flows' entries there again (ONOS's flow store may not have had the
     * dead master's last writes, and the new master's first read removes what
     * its store lacks) and leads its flows. A switch not connected yet is left
     * to its device events ({@link MasteredSwitches}); a write that fails is
     * tried again ({@link NewMasterRetries}).
     */
    private final class NewMasters implements MastershipListener {
        private final NewMasterRetries takeOns = new NewMasterRetries(
                "cc-new-master", worker,
                d -> mastershipService.isLocalMaster(d) && deviceService.isAvailable(d),
                d -> takeOn(d, true), log, "latency-critical flows' entries");

        @Override
        public boolean isRelevant(MastershipEvent event) {
            return event.type() == MastershipEvent.Type.MASTER_CHANGED
                    && mastershipService.isLocalMaster(event.subject());
        }

        @Override
        public void event(MastershipEvent event) {
            worker.execute(() -> takeOns.attempt(event.subject()));
        }

        void close() {
            takeOns.close();
        }
    }

    // The switch's congestion entries: its switch id and the flows' entries there.
    private List<FlowRule> entries(DeviceId device) {
        List<FlowRule> entries = new ArrayList<>(switches.entries(device));
        entries.addAll(manager.entries(device));
        return entries;
    }

    private void process(PacketContext context) {
        if (context.isHandled()) {
            return;
        }
        Instant came = clock.instant();  // before the report waits for the worker
        ConnectPoint from = context.inPacket().receivedFrom();
        ByteBuffer data = context.inPacket().unparsed();
        byte[] frame = new byte[data.remaining()];
        data.duplicate().get(frame);
        Optional<CcDigest> report = CcReport.decode(frame);
        if (report.isPresent()) {
            context.block();
            worker.execute(() -> switchedOver(from.deviceId(), report.get(), came));
        } else if (manager.probePacketIn(from.deviceId(), frame)) {
            context.block();
        }
    }

    private void switchedOver(DeviceId device, CcDigest report, Instant came) {
        try {
            manager.switchedOver(device, report, came);
        } catch (RuntimeException e) {
            log.warn("{}: switch-over report {} not handled: {}", device, report, e.getMessage());
        }
    }

    @Override
    public LatencyCriticalFlow register(CcFlowRequest request) {
        return manager.register(request);
    }

    @Override
    public void remove(long id) {
        manager.remove(id);
    }

    @Override
    public Optional<LatencyCriticalFlow> flow(long id) {
        return manager.flow(id);
    }

    @Override
    public Collection<LatencyCriticalFlow> flows() {
        return manager.flows();
    }
}
