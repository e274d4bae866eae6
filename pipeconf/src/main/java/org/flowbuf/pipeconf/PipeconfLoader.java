/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.app.ApplicationService;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.group.GroupService;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * Registers the FlowBuf pipeconfs with ONOS while the app is active (the
 * default one and the hybrid UPF's fast and slow profiles), so Stratum
 * bmv2 devices whose netcfg names one get that pipeline.
 */
@Component(immediate = true)
public class PipeconfLoader {

    private final Logger log = getLogger(getClass());

    /** The app whose rules and groups use this pipeconf (onos.app.name of the .oar). */
    static final String APP_NAME = "org.flowbuf.app";
    /** How long the pipeconf waits for ONOS to remove the app's rules. */
    static final long LEFTOVERS_WAIT_MILLIS = 10_000;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ApplicationService applicationService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GroupService groupService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Activate
    protected void activate() {
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            if (pipeconfService.getPipeconf(id).isPresent()) {
                // A leftover of an earlier activation: replace it with this bundle's.
                pipeconfService.unregister(id);
            }
            pipeconfService.register(FlowBufPipeconfs.build(id));
            log.info("Registered pipeconf {}", id);
        }
    }

    @Deactivate
    protected void deactivate() {
        removeAppLeftovers();
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            if (pipeconfService.getPipeconf(id).isPresent()) {
                pipeconfService.unregister(id);
                log.info("Unregistered pipeconf {}", id);
            }
        }
    }

    // The app's rules and groups off the switches while ONOS can still
    // translate them (see Leftovers); bounded, the pipeconf goes regardless.
    private void removeAppLeftovers() {
        ApplicationId appId = coreService.getAppId(APP_NAME);
        if (appId == null) {
            return;
        }
        Leftovers leftovers = new Leftovers(appId, applicationService, flowRuleService,
                                            groupService, deviceService);
        if (!leftovers.removeIfAppGoingAway()) {
            return;
        }
        long deadline = System.currentTimeMillis() + LEFTOVERS_WAIT_MILLIS;
        try {
            while (leftovers.rulesLeft() && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (leftovers.rulesLeft()) {
            log.warn("{}: ONOS still holds some of its rules after {} ms", APP_NAME,
                     LEFTOVERS_WAIT_MILLIS);
        }
    }
}
