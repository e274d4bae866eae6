/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.app.congestion.CcDigest;
import org.flowbuf.app.congestion.CcRules;
import org.flowbuf.app.congestion.CongestionManager;
import org.flowbuf.app.congestion.ProbeScheduler;
import org.flowbuf.app.congestion.ProbeTimer;
import org.flowbuf.app.congestion.SuurballePathFinder;
import org.flowbuf.app.congestion.ThresholdPolicy;
import org.flowbuf.host.netcfg.Netcfg;
import org.flowbuf.host.netcfg.SwitchEntry;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.SwitchSession;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * The congestion service in the embedded host: the manager on the netcfg
 * topology and the switches' P4Runtime sessions, each switch prepared for
 * congestion.p4 and its switch-over digests handed to the manager on one
 * thread of their own (P4Runtime writes must not run on a stream's thread).
 * PROBING flows' probes leave by packet-out and come back by packet-in;
 * their ticks and reroutes run on another thread of their own.
 */
final class CongestionWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CongestionWiring.class);

    private final CongestionManager manager;
    private final ExecutorService digests = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "flowbuf-cc-digests");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService probeThread =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "flowbuf-cc-probes");
                t.setDaemon(true);
                return t;
            });
    private final CcRules rules;
    private final NetcfgCcTopology topology;
    private final List<SwitchEntry> switchOrder;
    private final P4InfoIndex p4info;
    private final Clock clock = Clock.systemUTC();

    CongestionWiring(ApplicationId appId, Netcfg netcfg, Map<DeviceId, SwitchSession> switches,
                     P4InfoIndex p4info, BufferService buffers, FlowBufIntentService intents) {
        this.topology = new NetcfgCcTopology(netcfg);
        this.rules = new CcRules(appId);
        this.switchOrder = netcfg.switches();
        this.p4info = p4info;
        List<Link> links = topology.links();
        ProbeScheduler probes = new ProbeScheduler(new P4RuntimePacketEmitter(switches),
                                                   ProbeTimer.of(probeThread), System::nanoTime);
        this.manager = new CongestionManager(
                appId, topology, new SuurballePathFinder(() -> links),
                new ThresholdPolicy(netcfg.congestion().factor(), topology),
                new P4RuntimeCcWriter(switches), clock,
                s -> LOG.info("switch-over: {}", s), probes, buffers, intents, () -> links,
                netcfg.congestion()::markerBoundMs);
        for (SwitchEntry sw : netcfg.switches()) {
            SwitchSession session = switches.get(sw.deviceId());
            try {
                prepare(session);
            } catch (RuntimeException e) {
                // The rest of the host works without it; registering a flow will say why.
                LOG.warn("{}: congestion avoidance not prepared: {}", sw.deviceId(),
                         e.getMessage());
            }
            CcSwitchSetup.onSwitchOver(session, p4info, d -> {
                Instant came = clock.instant();  // before the digest waits for its thread
                digests.execute(() -> handle(sw.deviceId(), d, came));
            });
        }
    }

    private void handle(DeviceId device, CcDigest d, Instant came) {
        try {
            manager.switchedOver(device, d, came);
        } catch (RuntimeException e) {
            LOG.warn("{}: switch-over digest {} not handled: {}", device, d, e.getMessage());
        }
    }

    /**
     * Writes what congestion.p4 needs on a switch (again after it restarted).
     *
     * @param session the switch
     */
    void prepare(SwitchSession session) {
        DeviceId device = session.deviceId();
        List<Long> ports = topology.links().stream().filter(l -> l.src().deviceId().equals(device))
                .map(l -> l.src().port().toLong()).collect(Collectors.toList());
        CcSwitchSetup.write(session, rules, switchId(device), ports, p4info);
    }

    /**
     * Takes a switch back after its session was lost: what congestion.p4
     * needs, then the flows' entries when the switch lost them (a restart).
     *
     * @param session the switch
     */
    void takeBack(SwitchSession session) {
        prepare(session);
        int flows = manager.restore(session.deviceId());
        LOG.warn("{}: {} latency-critical flows written again", session.deviceId(), flows);
    }

    /** A switch's id in digests and notifications: its place in the netcfg, from 1. */
    private int switchId(DeviceId device) {
        for (int i = 0; i < switchOrder.size(); i++) {
            if (switchOrder.get(i).deviceId().equals(device)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(device + " is not in the netcfg");
    }

    /**
     * The service.
     *
     * @return manager
     */
    CongestionManager manager() {
        return manager;
    }

    @Override
    public void close() {
        probeThread.shutdownNow();
        digests.shutdownNow();
        manager.shutdown();
    }
}
