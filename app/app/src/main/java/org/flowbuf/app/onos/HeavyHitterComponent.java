/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.app.config.HeavyHitterAppConfig;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.upf.HeavyHitterManager;
import org.flowbuf.app.upf.HhReport;
import org.flowbuf.app.upf.HhRules;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.packet.PacketContext;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.APP_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * Runs heavy-hitter detection's settings inside ONOS: the netcfg section
 * (read at activation) and REST changes become hh_settings' default action
 * on every FlowBuf switch this instance masters, again when a switch comes
 * back. ONOS 2.7's P4Runtime driver delivers no digests, so each switch
 * is also asked (hh_cpu_report) to send its reports as packet-ins
 * (hh_report_t, by the CPU clone session that the congestion component
 * writes), and they take the digest's way to the listeners.
 */
@Component(immediate = true, service = HeavyHitterService.class)
public final class HeavyHitterComponent implements HeavyHitterService {

    static final int PROCESSOR_PRIORITY = PacketProcessor.advisor(3);

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PacketService packetService;

    private final ConfigFactory<ApplicationId, HeavyHitterAppConfig> appConfig =
            new ConfigFactory<>(APP_SUBJECT_FACTORY, HeavyHitterAppConfig.class,
                                HeavyHitterAppConfig.CONFIG_KEY) {
                @Override
                public HeavyHitterAppConfig createConfig() {
                    return new HeavyHitterAppConfig();
                }
            };
    private final PacketProcessor packets = this::process;
    private ApplicationId appId;
    private ExecutorService worker;
    private HhRules rules;
    private FlowRuleBatches batches;
    private HeavyHitterManager manager;
    private MasteredSwitches mastered;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        netcfgRegistry.registerConfigFactory(appConfig);
        worker = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "hh", log));
        rules = new HhRules(appId);
        batches = new FlowRuleBatches(flowRuleService, FlowBufManager.DEADLINE);
        manager = new HeavyHitterManager(this::writeAll, netcfgSettings());
        packetService.addProcessor(packets, PROCESSOR_PRIORITY);
        mastered = new MasteredSwitches(
                deviceService, MasteredSwitches.masteredFlowBuf(mastershipService, pipeconfService),
                worker, (device, again) -> write(device, manager.settings()), log,
                "heavy-hitter settings not written");
        mastered.start(true);
        log.info("heavy-hitter detection {}", manager.settings());
    }

    @Deactivate
    protected void deactivate() {
        mastered.stop();
        packetService.removeProcessor(packets);
        worker.shutdownNow();
        netcfgRegistry.unregisterConfigFactory(appConfig);
    }

    /** The app's heavyHitters section; the defaults (off) where ONOS's netcfg has none or a bad one. */
    private HeavyHitterSettings netcfgSettings() {
        HeavyHitterAppConfig config = netcfgRegistry.getConfig(appId, HeavyHitterAppConfig.class);
        if (config == null) {
            return HeavyHitterSettings.defaults();
        }
        try {
            return config.settings();
        } catch (IllegalArgumentException e) {
            log.warn("netcfg {}; detection stays off", e.getMessage());
            return HeavyHitterSettings.defaults();
        }
    }

    // The packet-in reports first: a switch never reports on the settings
    // without them.
    private void write(DeviceId device, HeavyHitterSettings settings) {
        List<FlowRule> all = new ArrayList<>();
        all.add(rules.cpuReport(device, true));
        all.addAll(rules.all(device, settings));
        batches.add(all, "write the heavy-hitter settings of " + device);
    }

    private void process(PacketContext context) {
        if (context.isHandled()) {
            return;
        }
        ByteBuffer data = context.inPacket().unparsed();
        byte[] frame = new byte[data.remaining()];
        data.duplicate().get(frame);
        Optional<HeavyHitter> report = HhReport.decode(
                context.inPacket().receivedFrom().deviceId(), frame, Instant.now());
        if (report.isPresent()) {
            context.block();
            // The listeners (the placement) write to switches: not on the stream's thread.
            worker.execute(() -> manager.reported(report.get()));
        }
    }

    private void writeAll(HeavyHitterSettings settings) {
        List<String> failed = new ArrayList<>();
        for (DeviceId device : mastered.available()) {
            try {
                write(device, settings);
            } catch (FlowBufException e) {
                failed.add(device + " (" + e.getMessage() + ")");
            }
        }
        if (!failed.isEmpty()) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "heavy-hitter settings not taken by "
                                               + String.join(", ", failed));
        }
    }

    @Override
    public HeavyHitterSettings settings() {
        return manager.settings();
    }

    @Override
    public void configure(HeavyHitterSettings settings) {
        manager.configure(settings);
    }

    @Override
    public List<HeavyHitter> recent() {
        return manager.recent();
    }

    @Override
    public void addListener(Consumer<HeavyHitter> listener) {
        manager.addListener(listener);
    }

    @Override
    public void removeListener(Consumer<HeavyHitter> listener) {
        manager.removeListener(listener);
    }
}
