/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.southbound.StatefulAgent;
import org.onosproject.net.DeviceId;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A switch's steering table for concurrency tests: refuses an insert whose
 * match is taken and a delete or modify of what it does not hold, as a
 * P4Runtime target does; a batch is all or nothing. Each write takes a
 * random time outside the table's lock, and refuses a given share of
 * inserts outright (a target out of room).
 */
public final class StatefulSwitch implements SteeringRuleWriter {

    /** What a refused insert says. */
    public static final String REFUSED = "switch: table full";

    private final long maxDelayMicros;
    private final double refuseShare;
    private final Map<List<Object>, SteeringRule> table = new HashMap<>();

    /**
     * A switch whose writes take up to the given time and refuse a share of inserts.
     *
     * @param maxDelayMicros longest time a write takes
     * @param refuseShare    share of inserts refused outright
     */
    public StatefulSwitch(long maxDelayMicros, double refuseShare) {
        this.maxDelayMicros = maxDelayMicros;
        this.refuseShare = refuseShare;
    }

    /**
     * The rules the switch holds.
     *
     * @return the rules
     */
    public synchronized Set<SteeringRule> rules() {
        return new HashSet<>(table.values());
    }

    // What a target matches a rule by (its action is not part of it).
    private static List<Object> match(DeviceId deviceId, SteeringRule rule) {
        return List.of(deviceId, rule.filter(), rule.fromVport(),
                       rule.ingressPort().orElse(-1L), rule.priority());
    }

    @Override
    public void install(DeviceId deviceId, SteeringRule rule) {
        installAll(deviceId, List.of(rule));
    }

    @Override
    public void modify(DeviceId deviceId, SteeringRule rule) {
        StatefulAgent.pause(0, maxDelayMicros);
        synchronized (this) {
            if (!table.containsKey(match(deviceId, rule))) {
                throw FlowBufException.notFound("switch: no entry %s", rule);
            }
            table.put(match(deviceId, rule), rule);
        }
    }

    @Override
    public void remove(DeviceId deviceId, SteeringRule rule) {
        removeAll(deviceId, List.of(rule));
    }

    @Override
    public void installAll(DeviceId deviceId, List<SteeringRule> rules) {
        StatefulAgent.pause(0, maxDelayMicros);
        if (ThreadLocalRandom.current().nextDouble() < refuseShare) {
            throw new FlowBufException(FlowBufException.Reason.EXHAUSTED, REFUSED);
        }
        synchronized (this) {
            for (SteeringRule rule : rules) {
                if (table.containsKey(match(deviceId, rule))) {
                    throw FlowBufException.conflict("switch: entry exists %s", rule);
                }
            }
            rules.forEach(rule -> table.put(match(deviceId, rule), rule));
        }
    }

    @Override
    public void removeAll(DeviceId deviceId, List<SteeringRule> rules) {
        StatefulAgent.pause(0, maxDelayMicros);
        synchronized (this) {
            for (SteeringRule rule : rules) {
                if (!rule.equals(table.get(match(deviceId, rule)))) {
                    throw FlowBufException.notFound("switch: no entry %s", rule);
                }
            }
            rules.forEach(rule -> table.remove(match(deviceId, rule)));
        }
    }
}
