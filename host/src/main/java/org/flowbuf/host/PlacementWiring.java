/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.app.packet.PacketEmitter;
import org.flowbuf.app.upf.HeavyHitterManager;
import org.flowbuf.app.upf.UpfStore;
import org.flowbuf.app.upf.hybrid.FastPath;
import org.flowbuf.app.upf.hybrid.PlacementEntries;
import org.flowbuf.app.upf.hybrid.PlacementManager;
import org.flowbuf.host.netcfg.HostEntry;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeWriteException;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.UpfP4Names;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The hybrid UPF's placement in the embedded host: heavy-hitter reports
 * promote, the fast path's packet-ins carry the end markers, its session
 * counters give the rates, its slow_path default action is written at
 * start and again when it comes back.
 */
final class PlacementWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PlacementWiring.class);

    private final PlacementManager manager;
    /** Promote reports of different UEs at once (each UE in its turn). */
    private final ExecutorService promoters = Executors.newFixedThreadPool(
            PlacementManager.PROMOTERS, daemon("flowbuf-hybrid-promote-"));

    PlacementWiring(ApplicationId appId, HybridSettings initial, Map<DeviceId, SwitchSession> switches,
                    P4InfoIndex p4info, UpfStore store, P4RuntimeUpfWriter writer,
                    PacketEmitter packets, FlowBufIntentService intents, BufferService buffers,
                    HeavyHitterManager heavyHitters, List<HostEntry> hosts) {
        Map<Ip4Address, MacAddress> byIp = new HashMap<>();
        hosts.forEach(h -> h.ips().stream().filter(ip -> ip.contains("."))
                .forEach(ip -> byIp.put(Ip4Address.valueOf(ip), h.mac())));
        Function<Ip4Address, Optional<MacAddress>> macs = ip -> Optional.ofNullable(byIp.get(ip));
        FastPath fastPath = new P4RuntimeFastPath(appId, switches, p4info);
        this.manager = PlacementManager.withOwnTimer(new PlacementManager.Deps(
                appId, store, writer, fastPath, packets, intents, buffers, switches::containsKey,
                () -> heavyHitters.settings().rateBps()).withMacs(macs).withPromotions(promoters));
        heavyHitters.addListener(manager::heavyHitter);
        try {
            manager.configure(initial);
        } catch (FlowBufException e) {
            // The rest of the host works without it; the REST settings say why.
            LOG.warn("hybrid placement not configured: {}", e.getMessage());
        }
    }

    /**
     * Writes the fast path's slow port again after the switch came back.
     *
     * @param device the switch
     */
    void prepare(DeviceId device) {
        try {
            manager.prepare(device);
        } catch (FlowBufException e) {
            LOG.warn("{}: slow path not written: {}", device, e.getMessage());
        }
    }

    /**
     * A packet-in: consumed when it is an end marker.
     *
     * @param device the switch
     * @param frame  the frame
     * @return whether it was one
     */
    boolean packetIn(DeviceId device, byte[] frame) {
        return manager.packetIn(device, frame);
    }

    PlacementManager manager() {
        return manager;
    }

    @Override
    public void close() {
        promoters.shutdownNow();
        manager.close();
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The fast path over the host's P4Runtime sessions. */
    private static final class P4RuntimeFastPath implements FastPath {

        private final ApplicationId appId;
        private final Map<DeviceId, SwitchSession> switches;
        private final int sessionCounter;

        P4RuntimeFastPath(ApplicationId appId, Map<DeviceId, SwitchSession> switches,
                          P4InfoIndex p4info) {
            this.appId = appId;
            this.switches = switches;
            this.sessionCounter = p4info.counterId(UpfP4Names.SESSION_COUNTER.id());
        }

        @Override
        public void setSlowPort(DeviceId device, Optional<PortNumber> slowPort) {
            try {
                session(device).setDefaultAction(PlacementEntries.slowPath(appId, device, slowPort));
            } catch (P4RuntimeWriteException e) {
                throw P4RuntimeSteeringWriter.refused(device, e);
            }
        }

        @Override
        public Map<Integer, Long> sessionBytes(DeviceId device, Collection<Integer> cells) {
            try {
                Map<Long, Long> read = session(device).client().readCounterBytes(
                        sessionCounter, cells.stream().map(Integer::longValue)
                                .collect(Collectors.toList()));
                Map<Integer, Long> bytes = new HashMap<>();
                read.forEach((cell, count) -> bytes.put(cell.intValue(), count));
                return bytes;
            } catch (P4RuntimeWriteException e) {
                throw P4RuntimeSteeringWriter.refused(device, e);
            }
        }

        private SwitchSession session(DeviceId device) {
            SwitchSession s = switches.get(device);
            if (s == null) {
                throw FlowBufException.notFound("no switch %s", device);
            }
            return s;
        }
    }
}
