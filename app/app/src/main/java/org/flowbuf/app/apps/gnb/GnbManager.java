/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.gnb;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The gNodeB devices: each device's "gnb" section (from the netcfg, or
 * changed by a bearer added or removed) and what it puts on the device.
 * A change writes only the difference (new clone sessions, new or changed
 * entries, then removes what is gone); a device that is not available is
 * written in full when it comes ({@link #rewrite}).
 */
public final class GnbManager implements GnbService {

    private static final Logger LOG = LoggerFactory.getLogger(GnbManager.class);

    private final ApplicationId appId;
    private final GnbTableWriter writer;
    private final Predicate<DeviceId> available;
    private final BiConsumer<DeviceId, ObjectNode> persist;
    private final Map<DeviceId, GnbDeviceConfig> configs = new HashMap<>();

    /**
     * Creates the manager.
     *
     * @param appId     the app writing the entries
     * @param writer    writes to the devices
     * @param available whether a device can be written now
     * @param persist   keeps a device's section after a bearer change (ONOS's netcfg store)
     */
    public GnbManager(ApplicationId appId, GnbTableWriter writer, Predicate<DeviceId> available,
                      BiConsumer<DeviceId, ObjectNode> persist) {
        this.appId = Objects.requireNonNull(appId);
        this.writer = Objects.requireNonNull(writer);
        this.available = Objects.requireNonNull(available);
        this.persist = Objects.requireNonNull(persist);
    }

    /**
     * Takes a device's section, as the netcfg now has it: writes what
     * changed, removes what is gone. A section equal to the current one
     * changes nothing (the echo of a bearer change).
     *
     * @param deviceId the device
     * @param config   its valid section; empty when it has none (any more)
     * @throws FlowBufException UNAVAILABLE when the device refuses; the section is kept
     *                          as the wanted state, written again when the device comes back
     */
    public synchronized void configure(DeviceId deviceId, Optional<GnbDeviceConfig> config) {
        GnbDeviceConfig old = configs.get(deviceId);
        GnbDeviceConfig next = config.orElse(null);
        if (old != null && next != null && old.node().equals(next.node())) {
            return;
        }
        if (next == null) {
            configs.remove(deviceId);
        } else {
            configs.put(deviceId, next);
        }
        if (available.test(deviceId)) {
            apply(deviceId, old, next);
        }
    }

    /**
     * Writes a device's whole gNodeB again (a switch that came back).
     *
     * @param deviceId the device
     * @return entries and clone sessions written, 0 when it is no gNodeB
     */
    public synchronized int rewrite(DeviceId deviceId) {
        GnbDeviceConfig config = configs.get(deviceId);
        if (config == null) {
            return 0;
        }
        Map<Integer, Long> sessions = GnbFlowRules.cloneSessions(config);
        List<FlowRule> entries = GnbFlowRules.entries(appId, deviceId, config);
        writer.write(deviceId, sessions, entries);
        return sessions.size() + entries.size();
    }

    @Override
    public synchronized List<GnbDevice> devices() {
        return configs.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().toString()))
                .map(e -> toDevice(e.getKey(), e.getValue())).collect(Collectors.toList());
    }

    @Override
    public synchronized Optional<GnbDevice> device(DeviceId deviceId) {
        return Optional.ofNullable(configs.get(deviceId)).map(c -> toDevice(deviceId, c));
    }

    @Override
    public synchronized GnbDevice addBearer(DeviceId deviceId, GnbBearer bearer) {
        GnbDeviceConfig old = gnb(deviceId);
        List<GnbDeviceConfig.Bearer> bearers = old.bearers();
        if (bearers.stream().anyMatch(b -> b.value().teid() == bearer.teid())) {
            throw FlowBufException.conflict("%s has a bearer of TEID %d already", deviceId,
                                            bearer.teid());
        }
        if (bearers.size() >= GnbDeviceConfig.MAX_BEARERS) {
            throw FlowBufException.conflict("%s has %d bearers, the most its pdcp_sn register "
                                                    + "holds", deviceId, bearers.size());
        }
        if (old.cells().stream().noneMatch(c -> c.id() == bearer.cell())) {
            throw FlowBufException.invalid("cell %d is not a cell of %s (it has %s)", bearer.cell(),
                                           deviceId, old.cells().stream()
                                                   .map(c -> Integer.toString(c.id()))
                                                   .collect(Collectors.joining(", ")));
        }
        GnbDeviceConfig next = old.withBearer(bearer);
        next.validationError().ifPresent(e -> {
            throw FlowBufException.invalid("%s", e);
        });
        change(deviceId, old, next);
        return toDevice(deviceId, next);
    }

    @Override
    public synchronized GnbBearer removeBearer(DeviceId deviceId, long teid) {
        GnbDeviceConfig old = gnb(deviceId);
        GnbDeviceConfig.Bearer gone = old.bearers().stream().filter(b -> b.value().teid() == teid)
                .findFirst().orElseThrow(() -> FlowBufException.notFound(
                        "%s has no bearer of TEID %d", deviceId, teid));
        change(deviceId, old, old.withoutBearer(teid));
        return gone.value();
    }

    private GnbDeviceConfig gnb(DeviceId deviceId) {
        GnbDeviceConfig config = configs.get(deviceId);
        if (config == null) {
            throw FlowBufException.notFound("%s is no gNodeB (it has no \"gnb\" netcfg section)",
                                            deviceId);
        }
        return config;
    }

    // A bearer change: written (taken back when the device refuses), then kept.
    private void change(DeviceId deviceId, GnbDeviceConfig old, GnbDeviceConfig next) {
        if (available.test(deviceId)) {
            try {
                apply(deviceId, old, next);
            } catch (FlowBufException e) {
                try {
                    apply(deviceId, next, old);
                } catch (FlowBufException alsoRefused) {
                    e.addSuppressed(alsoRefused);
                }
                throw e;
            }
        }
        configs.put(deviceId, next);
        persist.accept(deviceId, (ObjectNode) next.node());
    }

    // Writes what `next` has and `old` has not (or has with another action), then removes
    // what only `old` has. ONOS's FlowRule equality is the entry's key (no treatment).
    private void apply(DeviceId deviceId, GnbDeviceConfig old, GnbDeviceConfig next) {
        Map<Integer, Long> oldSessions = old == null ? Map.of() : GnbFlowRules.cloneSessions(old);
        Map<Integer, Long> newSessions = next == null ? Map.of() : GnbFlowRules.cloneSessions(next);
        List<FlowRule> oldEntries = old == null ? List.of()
                : GnbFlowRules.entries(appId, deviceId, old);
        List<FlowRule> newEntries = next == null ? List.of()
                : GnbFlowRules.entries(appId, deviceId, next);
        Map<FlowRule, FlowRule> had = new HashMap<>();
        oldEntries.forEach(r -> had.put(r, r));
        List<FlowRule> changed = newEntries.stream()
                .filter(r -> !had.containsKey(r) || !had.get(r).treatment().equals(r.treatment()))
                .collect(Collectors.toList());
        Map<Integer, Long> addedSessions = new LinkedHashMap<>(newSessions);
        addedSessions.keySet().removeAll(oldSessions.keySet());
        Set<FlowRule> wanted = new HashSet<>(newEntries);
        List<FlowRule> goneEntries = oldEntries.stream().filter(r -> !wanted.contains(r))
                .collect(Collectors.toList());
        List<Integer> goneSessions = new ArrayList<>(oldSessions.keySet());
        goneSessions.removeAll(newSessions.keySet());
        if (!addedSessions.isEmpty() || !changed.isEmpty()) {
            writer.write(deviceId, addedSessions, changed);
        }
        if (!goneSessions.isEmpty() || !goneEntries.isEmpty()) {
            writer.remove(deviceId, goneSessions, goneEntries);
        }
        LOG.info("{}: gNodeB {} entries and {} clone sessions written, {} and {} removed",
                 deviceId, changed.size(), addedSessions.size(), goneEntries.size(),
                 goneSessions.size());
    }

    private static GnbDevice toDevice(DeviceId deviceId, GnbDeviceConfig config) {
        return new GnbDevice(deviceId, config.upfPort(), config.cells(), config.bearers().stream()
                .map(GnbDeviceConfig.Bearer::value).collect(Collectors.toList()));
    }
}
