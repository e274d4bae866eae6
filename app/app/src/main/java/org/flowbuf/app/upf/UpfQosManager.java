/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfQosReroute;
import org.flowbuf.api.upf.UpfQosService;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * UPF-QoS: installs each device's DC class (a UPF application and its
 * QFI's queue, through the UPF service), reroutes every DC heavy hitter the
 * detector reports to the policy's high-bandwidth port with one steering
 * entry (ipv4_dst = the UE; it takes the UE's downlink before the UPF, so
 * the detector no longer times it), and takes the entry away once its
 * direct counter has not moved for the policy's idle time (then the
 * detector times the UE again, and reports it again if it is still heavy).
 */
public final class UpfQosManager implements UpfQosService {

    /**
     * Priority of a reroute: under a pause (100), so that a paused UE is
     * held rather than rerouted; over FB's rules (10).
     */
    static final int REROUTE_PRIORITY = 50;

    private static final Logger LOG = LoggerFactory.getLogger(UpfQosManager.class);

    /** Reads the bytes a steering entry took (its direct counter). */
    @FunctionalInterface
    public interface SteeringCounters {
        /**
         * The entry's byte count.
         *
         * @param deviceId device
         * @param rule     the entry
         * @return bytes
         * @throws FlowBufException when the device cannot be read or has no such entry
         */
        long bytes(DeviceId deviceId, SteeringRule rule);
    }

    /** A reroute in force, with when its counter last moved. */
    private static final class Active {
        private UpfQosReroute reroute;
        private final SteeringRule rule;
        private Instant moved;

        Active(UpfQosReroute reroute, SteeringRule rule) {
            this.reroute = reroute;
            this.rule = rule;
            this.moved = reroute.since();
        }
    }

    private final UpfService upf;
    private final SteeringRuleWriter writer;
    private final SteeringCounters counters;
    private final Predicate<DeviceId> knownDevice;
    private final Clock clock;
    private final Map<DeviceId, UpfQosPolicy> policies = new LinkedHashMap<>();
    /** Reroutes per (device, UE), in the order they were written. */
    private final Map<List<Object>, Active> reroutes = new LinkedHashMap<>();

    /**
     * A manager.
     *
     * @param upf         the UPF service that installs the DC classes
     * @param writer      writes the reroutes' steering entries
     * @param counters    reads their counters
     * @param knownDevice whether a device is a switch of this controller
     * @param clock       clock of the idle times
     */
    public UpfQosManager(UpfService upf, SteeringRuleWriter writer, SteeringCounters counters,
                         Predicate<DeviceId> knownDevice, Clock clock) {
        this.upf = Objects.requireNonNull(upf);
        this.writer = Objects.requireNonNull(writer);
        this.counters = Objects.requireNonNull(counters);
        this.knownDevice = Objects.requireNonNull(knownDevice);
        this.clock = Objects.requireNonNull(clock);
    }

    @Override
    public synchronized Collection<UpfQosPolicy> policies() {
        return List.copyOf(policies.values());
    }

    @Override
    public synchronized Optional<UpfQosPolicy> policy(DeviceId deviceId) {
        return Optional.ofNullable(policies.get(deviceId));
    }

    @Override
    public synchronized UpfQosPolicy setPolicy(UpfQosPolicy policy) {
        DeviceId device = policy.deviceId();
        if (!knownDevice.test(device)) {
            throw FlowBufException.notFound("unknown device %s", device);
        }
        if (policies.containsKey(device)) {
            throw FlowBufException.conflict("%s has a UPF-QoS policy; remove it first", device);
        }
        refuseTakenQueue(policy.dcQueue());
        upf.addApplication(policy.dcClass());
        try {
            upf.setQueue(policy.dcQueue());
        } catch (FlowBufException e) {
            upf.removeApplication(device, policy.dcClass().appId());
            throw e;
        }
        policies.put(device, policy);
        LOG.info("{}", policy);
        return policy;
    }

    /** setQueue replaces a QFI's queue: a QFI that has one belongs to someone else. */
    private void refuseTakenQueue(UpfQueue queue) {
        for (UpfQueue q : upf.queues()) {
            if (q.deviceId().equals(queue.deviceId()) && q.qfi() == queue.qfi()) {
                throw FlowBufException.conflict("QFI %d of %s already has queue %d; give the DC "
                                                        + "class another QFI", q.qfi(),
                                                q.deviceId(), q.queue());
            }
        }
    }

    @Override
    public synchronized UpfQosPolicy removePolicy(DeviceId deviceId) {
        UpfQosPolicy policy = policies.get(deviceId);
        if (policy == null) {
            throw FlowBufException.notFound("%s has no UPF-QoS policy", deviceId);
        }
        new ArrayList<>(reroutes.values()).stream()
                .filter(a -> a.reroute.deviceId().equals(deviceId))
                .forEach(a -> undo(a, "its policy was removed"));
        upf.removeQueue(deviceId, policy.dcQueue().qfi());
        upf.removeApplication(deviceId, policy.dcClass().appId());
        policies.remove(deviceId);
        LOG.info("{}: UPF-QoS policy removed", deviceId);
        return policy;
    }

    @Override
    public synchronized List<UpfQosReroute> reroutes() {
        List<UpfQosReroute> list = new ArrayList<>();
        reroutes.values().forEach(a -> list.add(a.reroute));
        return list;
    }

    /**
     * A heavy-hitter report (the detector's listener): a DC one, on a device
     * whose policy reroutes, not rerouted yet, is rerouted with one Write.
     *
     * @param hh the report
     */
    public synchronized void heavyHitter(HeavyHitter hh) {
        UpfQosPolicy policy = policies.get(hh.deviceId());
        if (policy == null || policy.highBandwidthPort().isEmpty()) {
            return;
        }
        if (!policy.isDelayCritical(hh)) {
            LOG.info("{}: heavy hitter {} is not delay-critical: not rerouted", hh.deviceId(),
                     hh.ueAddress());
            return;
        }
        List<Object> key = key(hh.deviceId(), hh.ueAddress());
        if (reroutes.containsKey(key)) {
            return;
        }
        long port = policy.highBandwidthPort().get();
        SteeringRule rule = rerouteRule(hh.ueAddress(), port);
        try {
            writer.install(hh.deviceId(), rule);
        } catch (FlowBufException e) {
            LOG.warn("{}: heavy hitter {} not rerouted: {}", hh.deviceId(), hh.ueAddress(),
                     e.getMessage());
            return;
        }
        UpfQosReroute reroute = new UpfQosReroute(hh, port, clock.instant(), 0);
        reroutes.put(key, new Active(reroute, rule));
        LOG.info("{}", reroute);
    }

    /**
     * Reads each reroute's counter and undoes those that took nothing for
     * their policy's idle time. Called periodically.
     */
    public synchronized void sweepIdle() {
        Instant now = clock.instant();
        for (Active a : new ArrayList<>(reroutes.values())) {
            long bytes;
            try {
                bytes = counters.bytes(a.reroute.deviceId(), a.rule);
            } catch (FlowBufException e) {
                LOG.debug("{}: counter not read: {}", a.reroute, e.getMessage());
                continue;
            }
            if (bytes != a.reroute.bytes()) {
                a.reroute = a.reroute.withBytes(bytes);
                a.moved = now;
                continue;
            }
            UpfQosPolicy policy = policies.get(a.reroute.deviceId());
            if (policy == null) {
                undo(a, "its policy was removed");
                continue;
            }
            Duration idle = policy.idle();
            if (Duration.between(a.moved, now).compareTo(idle) >= 0) {
                undo(a, "idle for " + idle.toMillis() + " ms");
            }
        }
    }

    /** Takes a reroute's entry away; a device that refuses keeps it listed (retried next sweep). */
    private void undo(Active a, String why) {
        try {
            writer.remove(a.reroute.deviceId(), a.rule);
        } catch (FlowBufException e) {
            if (e.reason() != FlowBufException.Reason.NOT_FOUND) {
                LOG.warn("{}: not undone ({}): {}", a.reroute, why, e.getMessage());
                return;
            }
        }
        reroutes.remove(key(a.reroute.deviceId(), a.reroute.ueAddress()));
        LOG.info("{} undone: {}", a.reroute, why);
    }

    /**
     * The steering entry of a reroute: the UE's downlink, not a buffer's
     * replay, from any port.
     *
     * @param ue   UE address
     * @param port high-bandwidth port
     * @return the entry
     */
    static SteeringRule rerouteRule(Ip4Address ue, long port) {
        FlowFilter filter = FlowFilter.builder().ipv4Dst(IpPrefix.valueOf(ue, 32)).build();
        return new SteeringRule(filter, false, null, port, REROUTE_PRIORITY);
    }

    private static List<Object> key(DeviceId deviceId, Ip4Address ue) {
        return List.of(deviceId, ue);
    }
}
