/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Writes steering rules straight to the switches over P4Runtime: the same
 * PI flow rules the ONOS writer hands to the FlowRuleService, encoded by the
 * host. Returns once the switch accepted the Write.
 */
final class P4RuntimeSteeringWriter implements SteeringRuleWriter {

    private final ApplicationId appId;
    private final Map<DeviceId, SwitchSession> switches;

    P4RuntimeSteeringWriter(ApplicationId appId, Map<DeviceId, SwitchSession> switches) {
        this.appId = Objects.requireNonNull(appId);
        this.switches = Map.copyOf(switches);
    }

    @Override
    public void install(DeviceId deviceId, SteeringRule rule) {
        write(deviceId, rule, SwitchSession::insert);
    }

    @Override
    public void modify(DeviceId deviceId, SteeringRule rule) {
        write(deviceId, rule, SwitchSession::modify);
    }

    @Override
    public void remove(DeviceId deviceId, SteeringRule rule) {
        write(deviceId, rule, SwitchSession::delete);
    }

    private void write(DeviceId deviceId, SteeringRule rule,
                       BiConsumer<SwitchSession, List<FlowRule>> update) {
        FlowRule flowRule = SteeringFlowRules.toFlowRule(appId, deviceId, rule);
        try {
            update.accept(session(deviceId), List.of(flowRule));
        } catch (P4RuntimeWriteException e) {
            throw refused(deviceId, e);
        }
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
                return new FlowBufException(FlowBufException.Reason.FORBIDDEN, message, e);
            default:
                return new FlowBufException(FlowBufException.Reason.UNAVAILABLE, message, e);
        }
    }
}
