/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;
import org.flowbuf.app.apps.gnb.GnbManager;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.app.pi.DriverGroups;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.flowbuf.app.pi.FlowRuleServiceGnbWriter;
import org.flowbuf.app.pi.GroupWrites;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.DEVICE_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * The hybrid gNodeB inside ONOS: registers the devices' "gnb" netcfg
 * section and follows it (added, changed, removed), writing each gNodeB's
 * clone sessions through the GroupService and its entries through the
 * FlowRuleService on the FlowBuf switches this instance masters, in full
 * again when a switch comes back. Bearers added or removed through the
 * service are written first, then put into the device's netcfg section, so
 * the section stays what the device runs.
 */
@Component(immediate = true, service = GnbService.class)
public final class GnbComponent implements GnbService {

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    private final ConfigFactory<DeviceId, GnbDeviceConfig> factory =
            new ConfigFactory<>(DEVICE_SUBJECT_FACTORY, GnbDeviceConfig.class,
                                GnbDeviceConfig.CONFIG_KEY) {
                @Override
                public GnbDeviceConfig createConfig() {
                    return new GnbDeviceConfig();
                }
            };
    private final NetworkConfigListener sections = new Sections();
    private ExecutorService worker;
    private GnbManager manager;
    private MasteredSwitches mastered;

    @Activate
    protected void activate() {
        ApplicationId appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        netcfgRegistry.registerConfigFactory(factory);
        worker = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "gnb", log));
        Predicate<DeviceId> ours = MasteredSwitches.masteredFlowBuf(mastershipService,
                                                                    pipeconfService);
        manager = new GnbManager(
                appId, new FlowRuleServiceGnbWriter(
                        appId, new FlowRuleBatches(flowRuleService, FlowBufManager.DEADLINE),
                        new GroupWrites(appId, groupService, new DriverGroups(deviceService),
                                        FlowBufManager.DEADLINE)),
                id -> deviceService.isAvailable(id) && ours.test(id),
                (id, node) -> netcfgRegistry.applyConfig(id, GnbDeviceConfig.class, node));
        netcfgRegistry.addListener(sections);
        for (DeviceId device : netcfgRegistry.getSubjects(DeviceId.class, GnbDeviceConfig.class)) {
            worker.execute(() -> configure(device));
        }
        mastered = new MasteredSwitches(deviceService, ours, worker,
                                        (device, again) -> rewrite(device), log,
                                        "gNodeB entries not written");
        mastered.start(false);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        mastered.stop();
        netcfgRegistry.removeListener(sections);
        worker.shutdownNow();
        netcfgRegistry.unregisterConfigFactory(factory);
        log.info("Stopped");
    }

    /** Takes the device's section as the netcfg has it now; a bad one is logged and ignored. */
    private void configure(DeviceId device) {
        GnbDeviceConfig config = netcfgRegistry.getConfig(device, GnbDeviceConfig.class);
        if (config != null && config.validationError().isPresent()) {
            log.warn("{}: netcfg gnb ignored: {}", device, config.validationError().get());
            return;
        }
        try {
            manager.configure(device, Optional.ofNullable(config));
        } catch (FlowBufException e) {
            log.warn("{}: gNodeB not written: {}", device, e.getMessage());
        }
    }

    private void rewrite(DeviceId device) {
        int written = manager.rewrite(device);
        if (written > 0) {
            log.info("{}: {} gNodeB entries and clone sessions written", device, written);
        }
    }

    @Override
    public List<GnbDevice> devices() {
        return manager.devices();
    }

    @Override
    public Optional<GnbDevice> device(DeviceId deviceId) {
        return manager.device(deviceId);
    }

    @Override
    public GnbDevice addBearer(DeviceId deviceId, GnbBearer bearer) {
        return manager.addBearer(deviceId, bearer);
    }

    @Override
    public GnbBearer removeBearer(DeviceId deviceId, long teid) {
        return manager.removeBearer(deviceId, teid);
    }

    /** A device's gnb section that was added, changed or removed. */
    private final class Sections implements NetworkConfigListener {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return event.configClass() == GnbDeviceConfig.class
                    && event.subject() instanceof DeviceId;
        }

        @Override
        public void event(NetworkConfigEvent event) {
            DeviceId device = (DeviceId) event.subject();
            worker.execute(() -> configure(device));
        }
    }
}
