/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfQosReroute;
import org.flowbuf.api.upf.UpfQosService;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.pi.FlowRuleServiceSteeringWriter;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.upf.UpfQosManager;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.onlab.util.Tools.groupedThreads;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * UPF-QoS inside ONOS: the policies (in this instance's memory) install
 * their DC class through the UPF component, reroutes go through the
 * FlowRuleService, and idle ones are found by the flow entries' byte
 * counts (ONOS's flow statistics: a reroute's idle time must exceed their
 * polling period). ONOS 2.7's P4Runtime driver delivers no digests, so the
 * heavy-hitter component reports nothing to reroute yet.
 */
@Component(immediate = true, service = UpfQosService.class)
public final class UpfQosComponent implements UpfQosService {

    /** How often the reroutes' counters are looked at. */
    static final long SWEEP_MS = 500;

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected UpfService upfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected HeavyHitterService heavyHitterService;

    private ApplicationId appId;
    private UpfQosManager manager;
    private ScheduledExecutorService sweeper;
    private Consumer<HeavyHitter> listener;

    @Activate
    protected void activate() {
        appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        manager = new UpfQosManager(upfService, new FlowRuleServiceSteeringWriter(
                appId, flowRuleService, FlowBufManager.DEADLINE), this::bytes,
                                    id -> deviceService.getDevice(id) != null, Clock.systemUTC());
        listener = manager::heavyHitter;
        heavyHitterService.addListener(listener);
        sweeper = Executors.newSingleThreadScheduledExecutor(groupedThreads("flowbuf", "upf-qos",
                                                                            log));
        sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        log.info("UPF-QoS started");
    }

    @Deactivate
    protected void deactivate() {
        heavyHitterService.removeListener(listener);
        sweeper.shutdownNow();
    }

    private void sweep() {
        try {
            manager.sweepIdle();
        } catch (RuntimeException e) {
            log.warn("UPF-QoS sweep failed: {}", e.toString());
        }
    }

    /** A reroute's bytes, as ONOS's flow statistics last found them. */
    private long bytes(DeviceId device, SteeringRule rule) {
        FlowRule wanted = SteeringFlowRules.toFlowRule(appId, device, rule);
        for (FlowEntry entry : flowRuleService.getFlowEntries(device)) {
            if (entry.exactMatch(wanted)) {
                return entry.bytes();
            }
        }
        throw FlowBufException.notFound("%s has no flow entry %s", device, rule);
    }

    @Override
    public Collection<UpfQosPolicy> policies() {
        return manager.policies();
    }

    @Override
    public Optional<UpfQosPolicy> policy(DeviceId deviceId) {
        return manager.policy(deviceId);
    }

    @Override
    public UpfQosPolicy setPolicy(UpfQosPolicy policy) {
        return manager.setPolicy(policy);
    }

    @Override
    public UpfQosPolicy removePolicy(DeviceId deviceId) {
        return manager.removePolicy(deviceId);
    }

    @Override
    public List<UpfQosReroute> reroutes() {
        return manager.reroutes();
    }
}
