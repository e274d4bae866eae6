/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.ProbeStats;
import org.flowbuf.api.congestion.SwitchOver;
import org.flowbuf.app.packet.PacketEmitter;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Probes the PROBING flows: every interval a probe ({@link ProbeFrames})
 * leaves by packet-out at the flow's source switch, out of its current
 * first hop; the far-end switch punts it back by packet-in. Each flow's
 * {@link ProbeMonitor} times it and decides; a late or missing probe makes
 * the rerouter (the congestion manager) move the flow to its backup, which
 * then tells this scheduler the new first hop ({@link #route}).
 *
 * <p>Locking: the scheduler's lock is never held while the rerouter runs
 * (the manager calls {@link #route} under its own lock).
 */
public final class ProbeScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    /** Moves a flow to its backup. */
    @FunctionalInterface
    public interface Rerouter {
        /**
         * Moves a flow.
         *
         * @param flowId  the flow
         * @param cause   PROBE_LATE or PROBE_MISSING
         * @param delayUs the late probe's one-way time, 0 for a missing one
         */
        void reroute(long flowId, SwitchOver.Cause cause, long delayUs);
    }

    private final PacketEmitter packets;
    private final ProbeTimer timer;
    private final LongSupplier nanoClock;
    private final Map<Long, Probed> flows = new HashMap<>();
    private final Map<Integer, Long> byIndex = new HashMap<>();
    private volatile Rerouter rerouter = (id, cause, us) -> { };

    /**
     * Creates the scheduler.
     *
     * @param packets   packet-out at the source switches
     * @param timer     where ticks and returned probes run
     * @param nanoClock monotonic time of sends and returns
     */
    public ProbeScheduler(PacketEmitter packets, ProbeTimer timer, LongSupplier nanoClock) {
        this.packets = Objects.requireNonNull(packets);
        this.timer = Objects.requireNonNull(timer);
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    /**
     * Who moves a flow when a probe says so (the manager, once).
     *
     * @param r the rerouter
     */
    void rerouteBy(Rerouter r) {
        this.rerouter = Objects.requireNonNull(r);
    }

    /**
     * Starts probing a flow, the first probe at once.
     *
     * @param flowId     the flow
     * @param index      its index (named in its probes)
     * @param filter     its 5-tuple
     * @param dstMac     its destination host's MAC
     * @param intervalMs the probe interval
     * @param budgetUs   its delay budget (a probe over it is late)
     * @param source     the source switch
     * @param firstHop   the port the flow leaves the source switch by
     */
    void start(long flowId, int index, FlowFilter filter, MacAddress dstMac, long intervalMs,
               long budgetUs, DeviceId source, PortNumber firstHop) {
        Probed p = new Probed(index, filter, dstMac,
                              new ProbeMonitor(intervalMs, budgetUs), source, firstHop);
        synchronized (this) {
            flows.put(flowId, p);
            byIndex.put(index, flowId);
        }
        p.stop = timer.every(intervalMs, () -> tick(flowId));
    }

    /**
     * The flow moved: probes leave by its new first hop, and a probe still
     * out says nothing about it.
     *
     * @param flowId   the flow
     * @param source   the source switch
     * @param firstHop the port it leaves that switch by now
     */
    synchronized void route(long flowId, DeviceId source, PortNumber firstHop) {
        Probed p = flows.get(flowId);
        if (p != null) {
            p.source = source;
            p.firstHop = firstHop;
            p.monitor.moved();
        }
    }

    /**
     * Stops probing a flow.
     *
     * @param flowId the flow
     */
    void stop(long flowId) {
        Probed p;
        synchronized (this) {
            p = flows.remove(flowId);
            if (p != null) {
                byIndex.remove(p.index);
            }
        }
        if (p != null && p.stop != null) {
            p.stop.run();
        }
    }

    /**
     * What a flow's probes found.
     *
     * @param flowId the flow
     * @return counters, empty when it is not probed
     */
    synchronized Optional<ProbeStats> stats(long flowId) {
        return Optional.ofNullable(flows.get(flowId)).map(p -> p.monitor.stats());
    }

    /**
     * A packet-in: when it is a probe, its arrival is timed now and handled
     * on the timer.
     *
     * @param device the switch that punted it
     * @param frame  the frame
     * @return whether it was a probe
     */
    public boolean packetIn(DeviceId device, byte[] frame) {
        long arrivedNs = nanoClock.getAsLong();
        Optional<ProbeFrames.Probe> probe = ProbeFrames.parse(frame);
        if (probe.isEmpty()) {
            return false;
        }
        timer.execute(() -> back(probe.get(), arrivedNs));
        return true;
    }

    /**
     * One interval passed for a flow: a probe still out is lost (the flow
     * moves); a new one leaves.
     *
     * @param flowId the flow
     */
    void tick(long flowId) {
        try {
            ProbeMonitor.Tick tick;
            synchronized (this) {
                Probed p = flows.get(flowId);
                if (p == null) {
                    return;
                }
                tick = p.monitor.tick(nanoClock.getAsLong());
            }
            if (tick == ProbeMonitor.Tick.WAIT) {
                return;
            }
            if (tick == ProbeMonitor.Tick.LOST) {
                rerouter.reroute(flowId, SwitchOver.Cause.PROBE_MISSING, 0);
            }
            send(flowId);
        } catch (RuntimeException e) {
            // A tick must not end the schedule: the next one tries again.
            LOG.warn("flow {}: probe tick failed: {}", flowId, e.getMessage());
        }
    }

    private void send(long flowId) {
        DeviceId source;
        PortNumber port;
        byte[] frame;
        synchronized (this) {
            Probed p = flows.get(flowId);
            if (p == null) {
                return;
            }
            // Built before it is timed: the first build loads classes (tens of ms).
            frame = ProbeFrames.build(p.filter, p.index, p.dstMac, p.monitor.nextSeq());
            p.monitor.send(nanoClock.getAsLong());
            source = p.source;
            port = p.firstHop;
        }
        packets.emit(source, port, frame);
    }

    private void back(ProbeFrames.Probe probe, long arrivedNs) {
        long flowId;
        Optional<SwitchOver.Cause> cause;
        long delayUs;
        synchronized (this) {
            Long id = byIndex.get(probe.index());
            Probed p = id == null ? null : flows.get(id);
            if (p == null) {
                return;
            }
            flowId = id;
            cause = p.monitor.back(probe.seq(), arrivedNs);
            delayUs = p.monitor.lastDelayNs() / 1000;
        }
        try {
            cause.ifPresent(c -> rerouter.reroute(flowId, c, delayUs));
        } catch (RuntimeException e) {
            LOG.warn("flow {}: reroute after a late probe failed: {}", flowId, e.getMessage());
        }
    }

    /** A probed flow: what its probes carry, where they leave, its monitor. */
    private static final class Probed {
        private final int index;
        private final FlowFilter filter;
        private final MacAddress dstMac;
        private final ProbeMonitor monitor;
        private DeviceId source;
        private PortNumber firstHop;
        private volatile Runnable stop;

        Probed(int index, FlowFilter filter, MacAddress dstMac, ProbeMonitor monitor,
               DeviceId source, PortNumber firstHop) {
            this.index = index;
            this.filter = filter;
            this.dstMac = dstMac;
            this.monitor = monitor;
            this.source = source;
            this.firstHop = firstHop;
        }
    }
}
