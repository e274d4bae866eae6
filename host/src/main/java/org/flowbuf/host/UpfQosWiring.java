/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitterService;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.pi.SteeringFlowRules;
import org.flowbuf.app.upf.UpfQosManager;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * UPF-QoS in the embedded host: the manager on the UPF service, the
 * steering writer and the switches' direct counters, told of every
 * heavy-hitter report, its idle reroutes swept on a thread of its own; the
 * netcfg's policies installed at start.
 */
final class UpfQosWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UpfQosWiring.class);
    /** How often the reroutes' counters are read: a tenth of the default idle time. */
    static final Duration SWEEP = Duration.ofMillis(100);

    private final UpfQosManager manager;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "flowbuf-upf-qos");
        t.setDaemon(true);
        return t;
    });

    UpfQosWiring(ApplicationId appId, List<UpfQosPolicy> policies, UpfService upf,
                 HeavyHitterService hh, SteeringRuleWriter rules,
                 Map<DeviceId, SwitchSession> switches) {
        this.manager = new UpfQosManager(upf, rules, (device, rule) -> bytes(appId, switches, device,
                                                                            rule),
                                         switches::containsKey, Clock.systemUTC());
        for (UpfQosPolicy policy : policies) {
            try {
                manager.setPolicy(policy);
            } catch (FlowBufException e) {
                LOG.warn("netcfg UPF-QoS policy of {} not installed: {}", policy.deviceId(),
                         e.getMessage());
            }
        }
        // Reports come on a switch's stream, which must not wait for a reroute's Write.
        hh.addListener(report -> sweeper.execute(() -> manager.heavyHitter(report)));
        sweeper.scheduleWithFixedDelay(this::sweep, SWEEP.toMillis(), SWEEP.toMillis(),
                                       TimeUnit.MILLISECONDS);
    }

    private void sweep() {
        try {
            manager.sweepIdle();
        } catch (RuntimeException e) {
            LOG.warn("UPF-QoS sweep failed: {}", e.toString());
        }
    }

    /** The direct counter of a steering entry, read over P4Runtime. */
    private static long bytes(ApplicationId appId, Map<DeviceId, SwitchSession> switches,
                              DeviceId device, SteeringRule rule) {
        SwitchSession session = switches.get(device);
        if (session == null) {
            throw FlowBufException.notFound("no P4Runtime session with %s", device);
        }
        TableEntry query = session.encoder()
                .encode(SteeringFlowRules.toFlowRule(appId, device, rule)).toBuilder()
                .clearAction().setCounterData(CounterData.getDefaultInstance()).build();
        List<TableEntry> found;
        try {
            found = session.client().readEntries(query);
        } catch (P4RuntimeWriteException e) {
            throw P4RuntimeSteeringWriter.refused(device, e);
        }
        if (found.isEmpty()) {
            throw FlowBufException.notFound("%s has no steering entry %s", device, rule);
        }
        return found.get(0).getCounterData().getByteCount();
    }

    /**
     * The service.
     *
     * @return manager
     */
    UpfQosManager manager() {
        return manager;
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
