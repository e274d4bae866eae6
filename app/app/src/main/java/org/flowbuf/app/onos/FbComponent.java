/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.app.pi.FlowRuleBatches;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.DEVICE_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * FB's admission (include/fb.p4) inside ONOS: registers the devices' "fb"
 * netcfg section and keeps each FlowBuf switch this instance masters
 * running what its section says (the class and shift entries and B, from
 * {@link FbFlowRules}, through the FlowRuleService): written when the
 * switch is ready (available and mastered, again when it comes back), the
 * difference written when the section changes, everything taken off when
 * the section is removed or the component stops. A bad section is logged
 * with its first bad field and changes nothing on the switch.
 */
@Component(immediate = true)
public final class FbComponent {

    // How long stopping waits for the switches to drop the entries (a few
    // switches' batches, each confirmed within FlowBufManager.DEADLINE).
    private static final Duration REMOVAL_WAIT = Duration.ofSeconds(10);

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    private final ConfigFactory<DeviceId, FbDeviceConfig> factory =
            new ConfigFactory<>(DEVICE_SUBJECT_FACTORY, FbDeviceConfig.class,
                                FbDeviceConfig.CONFIG_KEY) {
                @Override
                public FbDeviceConfig createConfig() {
                    return new FbDeviceConfig();
                }
            };
    private final NetworkConfigListener sections = new Sections();
    // What each switch was given (or may have been, after a refused batch);
    // touched on the worker only.
    private final Map<DeviceId, Set<FlowRule>> written = new HashMap<>();
    private ApplicationId appId;
    private ExecutorService worker;
    private FlowRuleBatches batches;
    private Predicate<DeviceId> ready;
    private MasteredSwitches mastered;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        netcfgRegistry.registerConfigFactory(factory);
        worker = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "fb", log));
        batches = new FlowRuleBatches(flowRuleService, FlowBufManager.DEADLINE);
        Predicate<DeviceId> ours = MasteredSwitches.masteredFlowBuf(mastershipService,
                                                                    pipeconfService);
        ready = device -> deviceService.isAvailable(device) && ours.test(device);
        netcfgRegistry.addListener(sections);
        for (DeviceId device : netcfgRegistry.getSubjects(DeviceId.class, FbDeviceConfig.class)) {
            worker.execute(() -> configure(device, false));
        }
        mastered = new MasteredSwitches(deviceService, ours, worker,
                                        this::configure, log, "FB entries not written");
        mastered.start(false);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        mastered.stop();
        netcfgRegistry.removeListener(sections);
        Future<?> cleared = worker.submit(this::removeAll);
        try {
            cleared.get(REMOVAL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("FB entries not all removed: {}", e.toString());
        }
        worker.shutdownNow();
        netcfgRegistry.unregisterConfigFactory(factory);
        log.info("Stopped");
    }

    /**
     * Brings a device to what its section says now, if the device is ready.
     *
     * @param device the device
     * @param again  true when the switch came (back): everything is written again
     */
    private void configure(DeviceId device, boolean again) {
        FbDeviceConfig config = netcfgRegistry.getConfig(device, FbDeviceConfig.class);
        if (config != null && config.validationError().isPresent()) {
            log.warn("{}: netcfg fb ignored, nothing written: {}", device,
                     config.validationError().get());
            return;
        }
        if (!ready.test(device)) {
            return;  // written when the switch comes (MasteredSwitches)
        }
        Set<FlowRule> wanted = config == null ? Set.of() : rules(device, config);
        Set<FlowRule> before = written.getOrDefault(device, Set.of());
        // ONOS keys a rule by device, table, selector and priority: a rule
        // whose key stays and whose action changes is written over, not removed.
        List<FlowRule> stale = before.stream().filter(r -> !wanted.contains(r))
                .collect(Collectors.toList());
        List<FlowRule> changed = wanted.stream()
                .filter(r -> again || before.stream().noneMatch(r::exactMatch))
                .collect(Collectors.toList());
        Set<FlowRule> mayHave = new HashSet<>(before);
        mayHave.addAll(wanted);
        written.put(device, mayHave);  // until the switch confirms
        try {
            batches.add(changed, "write " + changed.size() + " FB entries");
            batches.remove(stale, "remove " + stale.size() + " FB entries");
        } catch (FlowBufException e) {
            log.warn("{}: FB entries not written: {}", device, e.getMessage());
            return;
        }
        if (wanted.isEmpty()) {
            written.remove(device);
        } else {
            written.put(device, wanted);
        }
        if (!changed.isEmpty() || !stale.isEmpty()) {
            log.info("{}: FB: {} entries written, {} removed", device, changed.size(),
                     stale.size());
        }
    }

    private Set<FlowRule> rules(DeviceId device, FbDeviceConfig config) {
        Set<FlowRule> rules = new HashSet<>(FbFlowRules.entries(appId, device, config));
        rules.add(FbFlowRules.buffer(appId, device, config));
        return rules;
    }

    private void removeAll() {
        for (Map.Entry<DeviceId, Set<FlowRule>> e : written.entrySet()) {
            try {
                batches.remove(e.getValue(), "remove " + e.getValue().size() + " FB entries");
            } catch (FlowBufException refused) {
                log.warn("{}: FB entries not removed: {}", e.getKey(), refused.getMessage());
            }
        }
        written.clear();
    }

    /** A device's fb section that was added, changed or removed. */
    private final class Sections implements NetworkConfigListener {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return event.configClass() == FbDeviceConfig.class
                    && event.subject() instanceof DeviceId;
        }

        @Override
        public void event(NetworkConfigEvent event) {
            DeviceId device = (DeviceId) event.subject();
            worker.execute(() -> configure(device, false));
        }
    }
}
