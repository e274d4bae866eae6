/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.southbound.ConfiguredAgentDirectory;
import org.flowbuf.app.southbound.VportSlot;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.slf4j.Logger;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * What happens when a FlowBuf device comes up, goes down or gets a new
 * FlowBuf config: a fresh agent connection, the vport-port rules that mark
 * replays, and a reconciliation of buffers with the agent. Runs off the
 * event threads, only on the device's master.
 */
final class AgentLifecycle {

    private final Logger log = getLogger(getClass());
    private final ApplicationId appId;
    private final ConfiguredAgentDirectory agents;
    private final BufferService buffers;
    private final FlowRuleService flowRules;
    private final Function<DeviceId, List<SteeringRule>> installedRules;
    private final PiTranslationClaims claims;
    private final Predicate<DeviceId> isMaster;
    private final Executor executor;

    AgentLifecycle(ApplicationId appId, ConfiguredAgentDirectory agents, BufferService buffers,
                   FlowRuleService flowRules, Function<DeviceId, List<SteeringRule>> installedRules,
                   PiTranslationClaims claims, Predicate<DeviceId> isMaster, Executor executor) {
        this.appId = Objects.requireNonNull(appId);
        this.agents = Objects.requireNonNull(agents);
        this.buffers = Objects.requireNonNull(buffers);
        this.flowRules = Objects.requireNonNull(flowRules);
        this.installedRules = Objects.requireNonNull(installedRules);
        this.claims = Objects.requireNonNull(claims);
        this.isMaster = Objects.requireNonNull(isMaster);
        this.executor = Objects.requireNonNull(executor);
    }

    /**
     * An event of the device: its installed intents' steering rules and its
     * configured vport_ports rules that ONOS's PI translation store does not
     * know (after ONOS restarted) are claimed at once, on the event's thread,
     * before ONOS's flow provider reads the device (on its availability,
     * which follows its added and port events) and deletes what it cannot
     * account for. A deleted vport_ports rule would let a resume's replayed
     * packets be steered as fresh ones until it is written again. Cheap once
     * they are known; only on the device's master.
     *
     * @param deviceId device
     */
    void deviceSeen(DeviceId deviceId) {
        if (!drives(deviceId)) {
            return;
        }
        claims.claim(deviceId, entries(deviceId), "steering and vport rules");
    }

    /**
     * Whether this instance drives the device: a FlowBuf device it masters.
     *
     * @param deviceId device
     * @return whether it does
     */
    boolean drives(DeviceId deviceId) {
        return agents.devices().contains(deviceId) && isMaster.test(deviceId);
    }

    /**
     * The device's entries as FlowBuf wants them: its installed intents'
     * steering rules and its configured vport_ports rules.
     *
     * @param deviceId device
     * @return the flow rules
     */
    List<FlowRule> entries(DeviceId deviceId) {
        return Stream.concat(
                installedRules.apply(deviceId).stream()
                        .map(rule -> SteeringFlowRules.toFlowRule(appId, deviceId, rule)),
                configuredVportRules(deviceId).stream())
                .collect(Collectors.toList());
    }

    /**
     * The device is (again) reachable, or its FlowBuf config changed.
     *
     * @param deviceId device
     */
    void deviceReady(DeviceId deviceId) {
        // Forget at once, so the very next call uses the config as it is now.
        agents.forget(deviceId);
        executor.execute(() -> bringUp(deviceId));
    }

    /**
     * The device went away: drop the agent connection; buffers stay in the
     * store until the device is back and reconciled.
     *
     * @param deviceId device
     */
    void deviceGone(DeviceId deviceId) {
        agents.forget(deviceId);
    }

    private void bringUp(DeviceId deviceId) {
        if (!agents.devices().contains(deviceId) || !isMaster.test(deviceId)) {
            return;
        }
        writeVportRules(deviceId);
        try {
            buffers.reconcile(deviceId).forEach(
                    e -> log.info("{}: {} {}", deviceId, e.type(), e.subject().id()));
        } catch (FlowBufException e) {
            log.warn("{}: buffers not reconciled: {}", deviceId, e.getMessage());
        }
    }

    /**
     * Brings this app's vport_ports rules of the device to the configured
     * ones: adds the missing, removes those no longer configured and leaves
     * the rest alone (a rule removed and added again leaves a gap on the
     * switch in which replayed packets are steered as fresh ones).
     */
    private void writeVportRules(DeviceId deviceId) {
        List<FlowRule> configured = configuredVportRules(deviceId);
        List<FlowEntry> stored = storedVportRules(deviceId);
        FlowEntry[] unconfigured = stored.stream()
                .filter(entry -> configured.stream().noneMatch(entry::exactMatch))
                .toArray(FlowEntry[]::new);
        FlowRule[] missing = configured.stream()
                .filter(rule -> stored.stream().noneMatch(rule::exactMatch))
                .toArray(FlowRule[]::new);
        if (unconfigured.length > 0) {
            flowRules.removeFlowRules(unconfigured);
        }
        if (missing.length > 0) {
            flowRules.applyFlowRules(missing);
        }
    }

    /** One vport_ports rule per switch port of the device's configured vports. */
    private List<FlowRule> configuredVportRules(DeviceId deviceId) {
        return agents.vportSlots(deviceId).stream().map(VportSlot::switchPort).distinct()
                .map(port -> SteeringFlowRules.vportPortRule(appId, deviceId, port))
                .collect(Collectors.toList());
    }

    /** This app's vport_ports rules of the device in ONOS's flow store. */
    private List<FlowEntry> storedVportRules(DeviceId deviceId) {
        return StreamSupport.stream(flowRules.getFlowEntries(deviceId).spliterator(), false)
                .filter(r -> r.appId() == appId.id()
                        && FlowBufP4Names.VPORT_PORTS.equals(r.table()))
                .collect(Collectors.toList());
    }
}
