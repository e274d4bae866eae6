/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import io.grpc.Status;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Writes steering rules straight to the switches over P4Runtime: the same
 * PI flow rules the ONOS writer hands to the FlowRuleService, encoded by the
 * host. Returns once the switch accepted the Write. Remembers what each
 * switch accepted, so that a switch that restarted gets the applications'
 * rules back ({@link #restore}), as ONOS's flow rule subsystem does.
 */
final class P4RuntimeSteeringWriter implements SteeringRuleWriter {

    private final ApplicationId appId;
    private final Map<DeviceId, SwitchSession> switches;
    private final WrittenRules written = new WrittenRules();

    P4RuntimeSteeringWriter(ApplicationId appId, Map<DeviceId, SwitchSession> switches) {
        this.appId = Objects.requireNonNull(appId);
        this.switches = Map.copyOf(switches);
    }

    @Override
    public void install(DeviceId deviceId, SteeringRule rule) {
        written.accepted(write(deviceId, rule, SwitchSession::insert));
    }

    @Override
    public void modify(DeviceId deviceId, SteeringRule rule) {
        written.accepted(write(deviceId, rule, SwitchSession::modify));
    }

    @Override
    public void remove(DeviceId deviceId, SteeringRule rule) {
        List<FlowRule> flowRule = List.of(SteeringFlowRules.toFlowRule(appId, deviceId, rule));
        try {
            session(deviceId).delete(flowRule);
        } catch (P4RuntimeWriteException e) {
            if (e.code() == Status.Code.NOT_FOUND) {
                written.removed(flowRule);
            }
            throw refused(deviceId, e);
        }
        written.removed(flowRule);
    }

    /**
     * Writes again the rules a switch had accepted and not removed, keeping
     * those it still has: after a restart of the switch, the applications'
     * rules (FMM's multicast rule, LMM's anchor path, ...) steer again.
     *
     * @param deviceId device
     * @return how many rules were written or found
     */
    int restore(DeviceId deviceId) {
        List<FlowRule> rules = written.of(deviceId);
        if (!rules.isEmpty()) {
            session(deviceId).insertMissing(rules);
        }
        return rules.size();
    }

    /**
     * One Write of inserts. pbswitch and Stratum apply a Write update by
     * update (CONTINUE_ON_ERROR), so after a refusal the updates that were
     * applied are deleted again: the batch leaves nothing behind.
     */
    @Override
    public void installAll(DeviceId deviceId, List<SteeringRule> rules) {
        if (rules.isEmpty()) {
            return;
        }
        List<FlowRule> flowRules = flowRules(deviceId, rules);
        SwitchSession session = session(deviceId);
        try {
            session.insert(flowRules);
        } catch (P4RuntimeWriteException e) {
            undoApplied(session, flowRules, e);
            throw refused(deviceId, e);
        }
        written.accepted(flowRules);
    }

    @Override
    public void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
        if (rules.isEmpty()) {
            return;
        }
        List<FlowRule> flowRules = flowRules(deviceId, rules);
        try {
            session(deviceId).delete(flowRules);
        } catch (P4RuntimeWriteException e) {
            throw refused(deviceId, e);
        }
        written.removed(flowRules);
    }

    private List<FlowRule> flowRules(DeviceId deviceId, List<SteeringRule> rules) {
        List<FlowRule> flowRules = new ArrayList<>();
        rules.forEach(r -> flowRules.add(SteeringFlowRules.toFlowRule(appId, deviceId, r)));
        return flowRules;
    }

    private static void undoApplied(SwitchSession session, List<FlowRule> written,
                                    P4RuntimeWriteException e) {
        if (e.failedUpdates().isPresent()) {
            List<FlowRule> applied = new ArrayList<>();
            for (int i = 0; i < written.size(); i++) {
                if (!e.failedUpdates().get().contains(i)) {
                    applied.add(written.get(i));
                }
            }
            if (!applied.isEmpty()) {
                session.delete(applied);
            }
            return;
        }
        // The target did not say which were applied: delete each on its own.
        for (FlowRule rule : written) {
            try {
                session.delete(List.of(rule));
            } catch (P4RuntimeWriteException notThere) {
                continue;
            }
        }
    }

    private List<FlowRule> write(DeviceId deviceId, SteeringRule rule,
                                 BiConsumer<SwitchSession, List<FlowRule>> update) {
        List<FlowRule> flowRule = List.of(SteeringFlowRules.toFlowRule(appId, deviceId, rule));
        try {
            update.accept(session(deviceId), flowRule);
        } catch (P4RuntimeWriteException e) {
            throw refused(deviceId, e);
        }
        return flowRule;
    }

    private SwitchSession session(DeviceId deviceId) {
        SwitchSession session = switches.get(deviceId);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", deviceId);
        }
        return session;
    }

    static FlowBufException refused(DeviceId deviceId, P4RuntimeWriteException e) {
        String message = deviceId + ": " + e.getMessage();
        switch (e.code()) {
            case INVALID_ARGUMENT:
            case OUT_OF_RANGE:
                return new FlowBufException(FlowBufException.Reason.INVALID, message, e);
            case ALREADY_EXISTS:
            case FAILED_PRECONDITION:
                return new FlowBufException(FlowBufException.Reason.CONFLICT, message, e);
            case NOT_FOUND:
                return new FlowBufException(FlowBufException.Reason.NOT_FOUND, message, e);
            case RESOURCE_EXHAUSTED:
                return new FlowBufException(FlowBufException.Reason.EXHAUSTED, message, e);
            case PERMISSION_DENIED:
                // P4Runtime's word for "not the primary client": the host lost
                // the switch (it restarted) and has not taken it back yet. No
                // caller lacks a right here; the device is unavailable.
                return new FlowBufException(FlowBufException.Reason.UNAVAILABLE, message, e);
            default:
                return new FlowBufException(FlowBufException.Reason.UNAVAILABLE, message, e);
        }
    }
}
