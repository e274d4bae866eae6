/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.app.packet.PacketEmitter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The Buffer Service of a cluster as every instance sees it: the agents'
 * buffers with the packets they hold, LMM's intents, the marker watches
 * open on the buffers, and the end markers sent but not yet arrived. Shared
 * by two LMM instances, it outlives the one that dies (its watches close
 * with it; its buffers and intents stay). A buffer's packets count as held
 * until it forwards: a resume intent or a move to FORWARDING releases them.
 */
final class SharedBuffers {

    private final FlowFilter downlink;
    /** "device/buffer" to the packets it took in. */
    private final Map<String, Integer> buffers = new TreeMap<>();
    private final Map<String, BufferState> modes = new TreeMap<>();
    /** Armed moves: "device/trigger" to the buffer it moves. */
    private final Map<String, String> armed = new TreeMap<>();
    private final Map<Long, FlowBufIntent> intents = new TreeMap<>();
    private final List<Watch> watches = new ArrayList<>();
    private int watchesToRefuse;
    private int markersInFlight;
    private int markersSent;
    private long nextIntent;

    private static final class Watch {
        final String buffer;
        final Runnable onSeen;
        boolean open = true;

        Watch(String buffer, Runnable onSeen) {
            this.buffer = buffer;
            this.onSeen = onSeen;
        }
    }

    SharedBuffers(FlowFilter downlink) {
        this.downlink = downlink;
    }

    private static String key(Object device, Object buffer) {
        return device + "/" + buffer;
    }

    /** @return the task-level service (one instance's view of it) */
    BufferService buffers() {
        return (BufferService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{BufferService.class},
                (proxy, method, args) -> {
                    synchronized (this) {
                        switch (method.getName()) {
                            case "createBuffer":
                                buffers.put(key(args[0], args[1]), 0);
                                modes.put(key(args[0], args[1]), (BufferState) args[4]);
                                return null;
                            case "moveBuffer":
                                if (!buffers.containsKey(key(args[0], args[1]))) {
                                    throw FlowBufException.notFound("no buffer %s", args[1]);
                                }
                                modes.put(key(args[0], args[1]), (BufferState) args[3]);
                                return null;
                            case "getStatistics":
                                return Optional.empty();
                            case "armMove":
                                armed.put(key(args[0], args[1]), String.valueOf(args[2]));
                                return null;
                            case "disarm":
                                return armed.remove(key(args[0], args[1])) != null
                                        ? Disarmed.stillArmed() : Disarmed.nothingArmed();
                            case "removeBuffer":
                                modes.remove(key(args[0], args[1]));
                                if (buffers.remove(key(args[0], args[1])) == null) {
                                    throw FlowBufException.notFound("no buffer %s", args[1]);
                                }
                                return null;
                            case "getBuffer":
                                return Optional.empty();
                            case "getDevices":
                                return Set.of(DeviceId.deviceId("device:s1"),
                                              DeviceId.deviceId("device:s2"));
                            case "watchMarker":
                                if (watchesToRefuse > 0) {
                                    watchesToRefuse--;
                                    throw new FlowBufException(
                                            FlowBufException.Reason.UNAVAILABLE,
                                            "this instance does not drive " + args[0] + " yet");
                                }
                                Watch w = new Watch(key(args[0], args[1]), (Runnable) args[4]);
                                watches.add(w);
                                return (MarkerWatch) () -> {
                                    synchronized (this) {
                                        w.open = false;
                                    }
                                };
                            default:
                                throw new UnsupportedOperationException(method.getName());
                        }
                    }
                });
    }

    /** @return the intent service (cluster-wide intents) */
    FlowBufIntentService intents() {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    synchronized (this) {
                        switch (method.getName()) {
                            case "withdraw":
                                if (intents.remove(((IntentId) args[0]).id()) == null) {
                                    throw FlowBufException.notFound("no intent %s", args[0]);
                                }
                                return null;
                            case "getIntents":
                                return List.copyOf(intents.values());
                            case "pause":
                            case "resume":
                                long id = ++nextIntent;
                                FlowBufIntent i = new FlowBufIntent(
                                        IntentId.intentId(id), method.getName().equals("pause")
                                        ? FlowBufIntent.Type.PAUSE : FlowBufIntent.Type.RESUME,
                                        (DeviceId) args[0], (PortNumber) args[1],
                                        (FlowFilter) args[2],
                                        ((Optional<?>) args[3]).map(BufferId.class::cast)
                                                .orElseThrow(),
                                        FlowBufIntent.State.INSTALLED, (String) args[4], null);
                                intents.put(id, i);
                                if (i.type() == FlowBufIntent.Type.RESUME) {
                                    modes.put(key(args[0], i.bufferId().orElseThrow()),
                                              BufferState.FORWARDING);
                                }
                                return i;
                            default:
                                throw new UnsupportedOperationException(method.getName());
                        }
                    }
                });
    }

    /** @return packet-out: an end marker sent down the old path, in flight */
    PacketEmitter packets() {
        return (device, port, frame) -> {
            synchronized (this) {
                if (EndMarker.PATTERN.matches(frame)) {
                    markersInFlight++;
                    markersSent++;
                }
            }
        };
    }

    /**
     * Packets of the downlink enter a buffer (held until a resume releases them).
     *
     * @param device the device
     * @param buffer the buffer
     * @param n      how many
     */
    synchronized void arrive(String device, String buffer, int n) {
        buffers.merge(key(device, buffer), n, Integer::sum);
    }

    /** The end markers in flight enter both old-path buffers: open watches there see them. */
    void markersArrive() {
        List<Runnable> seen = new ArrayList<>();
        synchronized (this) {
            for (; markersInFlight > 0; markersInFlight--) {
                watches.stream().filter(w -> w.open && buffers.containsKey(w.buffer))
                        .forEach(w -> seen.add(w.onSeen));
            }
        }
        seen.forEach(Runnable::run);
    }

    /**
     * The next marker watches are refused (an agent this instance does not
     * drive yet).
     *
     * @param n how many
     */
    synchronized void refuseWatches(int n) {
        watchesToRefuse = n;
    }

    /** @return end markers sent so far */
    synchronized int markersSent() {
        return markersSent;
    }

    /** @return packets in buffers that do not forward: held with nobody releasing them */
    synchronized int held() {
        return buffers.entrySet().stream()
                .filter(e -> modes.get(e.getKey()) != BufferState.FORWARDING)
                .mapToInt(Map.Entry::getValue).sum();
    }

    /**
     * @param device a device
     * @param buffer a buffer there
     * @return its mode, or null when it is not there
     */
    synchronized BufferState mode(String device, String buffer) {
        return modes.get(key(device, buffer));
    }

    /** @return the moves still armed, as "device/trigger" */
    synchronized Set<String> armedTriggers() {
        return new TreeSet<>(armed.keySet());
    }

    /** @return the buffers left, as "device/buffer" */
    synchronized Set<String> bufferNames() {
        return new TreeSet<>(buffers.keySet());
    }

    /** @return the intents left, as "TYPE device/port buffer" */
    synchronized Set<String> intentNames() {
        return intents.values().stream()
                .map(i -> i.type() + " " + i.deviceId() + "/" + i.port() + " "
                        + i.bufferId().orElseThrow())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** @return the downlink the buffers hold */
    FlowFilter downlink() {
        return downlink;
    }
}
