/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.app.config.HybridAppConfig;
import org.flowbuf.app.packet.PacketServiceEmitter;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.pi.FlowRuleServiceUpfWriter;
import org.flowbuf.app.store.DistributedUpfStore;
import org.flowbuf.app.upf.hybrid.PlacementManager;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Host;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.host.HostService;
import org.onosproject.net.meter.MeterService;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.p4runtime.api.P4RuntimeController;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.APP_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * Runs the hybrid UPF's placement inside ONOS: the netcfg section
 * (apps."org.flowbuf.app".hybrid, read at activation) or REST names the
 * fast and slow path; the heavy-hitter component's reports (packet-ins
 * here) promote; the fast path's packet-ins carry the end markers back;
 * UPF entries go through the FlowRuleService, the session counter is read
 * over ONOS's P4Runtime client, the gNodeBs' MACs come from the
 * HostService. Netcfg settings that name a device ONOS does not know yet
 * are tried again as FlowBuf switches come. The placement is this
 * instance's (not distributed): it
 * acts on reports and markers of a fast path this instance masters, and
 * writes the slow port again when that switch comes back.
 */
@Component(immediate = true, service = HybridPlacementService.class)
public final class HybridPlacementComponent implements HybridPlacementService {

    static final int PROCESSOR_PRIORITY = PacketProcessor.advisor(4);

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MeterService meterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HostService hostService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected P4RuntimeController p4RuntimeController;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HeavyHitterService heavyHitterService;

    private final ConfigFactory<ApplicationId, HybridAppConfig> appConfig =
            new ConfigFactory<>(APP_SUBJECT_FACTORY, HybridAppConfig.class,
                                HybridAppConfig.CONFIG_KEY) {
                @Override
                public HybridAppConfig createConfig() {
                    return new HybridAppConfig();
                }
            };
    private final PacketProcessor packets = this::process;
    private final Consumer<HeavyHitter> reports = this::reported;
    private ApplicationId appId;
    private ExecutorService worker;
    private ExecutorService promoters;
    private PlacementManager manager;
    private MasteredSwitches mastered;
    /** The netcfg's settings, until the devices they name are known (worker only). */
    private volatile HybridSettings pendingNetcfg;
    /** Set by the first REST configure: the netcfg's settings no longer apply. */
    private volatile boolean operatorConfigured;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        netcfgRegistry.registerConfigFactory(appConfig);
        worker = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "hybrid", log));
        promoters = Executors.newFixedThreadPool(PlacementManager.PROMOTERS,
                                                 groupedThreads("flowbuf", "hybrid-promote-%d", log));
        manager = PlacementManager.withOwnTimer(new PlacementManager.Deps(
                appId, new DistributedUpfStore(storageService),
                new FlowRuleServiceUpfWriter(appId, flowRuleService, meterService,
                                             FlowBufManager.DEADLINE),
                new OnosFastPath(appId, new FlowRuleBatches(flowRuleService, FlowBufManager.DEADLINE),
                                 OnosFastPath.overP4Runtime(new P4RuntimeCounterCells(
                                         p4RuntimeController, deviceService, pipeconfService))),
                new PacketServiceEmitter(packetService), intentService, bufferService,
                id -> deviceService.getDevice(id) != null,
                () -> heavyHitterService.settings().rateBps()).withMacs(this::macOf)
                .withPromotions(promoters));
        heavyHitterService.addListener(reports);
        packetService.addProcessor(packets, PROCESSOR_PRIORITY);
        // On the worker: writing the slow port waits for the switch.
        HybridSettings initial = netcfgSettings();
        if (initial.enabled()) {
            worker.execute(() -> configureQuietly(initial));
        }
        mastered = new MasteredSwitches(
                deviceService, MasteredSwitches.masteredFlowBuf(mastershipService, pipeconfService),
                worker, this::takeOn, log, "hybrid slow path not written");
        mastered.start(false);
    }

    @Deactivate
    protected void deactivate() {
        mastered.stop();
        packetService.removeProcessor(packets);
        heavyHitterService.removeListener(reports);
        worker.shutdownNow();
        promoters.shutdownNow();
        manager.close();
        netcfgRegistry.unregisterConfigFactory(appConfig);
    }

    // The netcfg's settings; when they name a device ONOS does not know yet
    // (the app is often up before its switches), again as switches come.
    private synchronized void configureQuietly(HybridSettings initial) {
        if (operatorConfigured) {
            return;  // REST settings came first: they stay
        }
        try {
            manager.configure(initial);
            pendingNetcfg = null;
            log.info("hybrid placement {}", initial);
        } catch (FlowBufException e) {
            pendingNetcfg = e.reason() == FlowBufException.Reason.INVALID ? initial : null;
            // The rest of the app works without it; REST settings say why.
            log.warn("hybrid placement not configured{}: {}",
                     pendingNetcfg != null ? " yet" : "", e.getMessage());
        }
    }

    private void takeOn(DeviceId device, boolean again) {
        HybridSettings pending = pendingNetcfg;
        if (pending != null && !manager.settings().enabled()) {
            configureQuietly(pending);
        } else if (again) {
            manager.prepare(device);
        }
    }

    /** The app's hybrid section; off where ONOS's netcfg has none or a bad one. */
    private HybridSettings netcfgSettings() {
        HybridAppConfig config = netcfgRegistry.getConfig(appId, HybridAppConfig.class);
        if (config == null) {
            return HybridSettings.off();
        }
        try {
            return config.settings();
        } catch (IllegalArgumentException e) {
            log.warn("netcfg {}; the placement stays off", e.getMessage());
            return HybridSettings.off();
        }
    }

    private Optional<MacAddress> macOf(Ip4Address ip) {
        return hostService.getHostsByIp(ip).stream().map(Host::mac).findFirst();
    }

    // A report of the fast path this instance masters promotes, on the
    // promoters (a promotion writes to the switch; reports of different UEs
    // are promoted at once).
    private void reported(HeavyHitter report) {
        if (mastershipService.isLocalMaster(report.deviceId())) {
            manager.heavyHitter(report);
        }
    }

    private void process(PacketContext context) {
        if (context.isHandled()) {
            return;
        }
        ByteBuffer data = context.inPacket().unparsed();
        byte[] frame = new byte[data.remaining()];
        data.duplicate().get(frame);
        DeviceId from = context.inPacket().receivedFrom().deviceId();
        if (manager.packetIn(from, frame)) {
            context.block();
        }
    }

    @Override
    public HybridSettings settings() {
        return manager.settings();
    }

    @Override
    public synchronized void configure(HybridSettings settings) {
        operatorConfigured = true;  // the operator's settings replace the netcfg's
        pendingNetcfg = null;
        manager.configure(settings);
    }

    @Override
    public List<UePlacement> placements() {
        return manager.placements();
    }

    @Override
    public Optional<UePlacement> placement(Ip4Address ue) {
        return manager.placement(ue);
    }
}
