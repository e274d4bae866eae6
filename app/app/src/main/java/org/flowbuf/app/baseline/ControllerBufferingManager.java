/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.task.StripedTurns;
import com.google.common.util.concurrent.Striped;
import org.flowbuf.app.packet.PacketEmitter;
import org.flowbuf.pipeconf.FlowBufP4Names;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;

/**
 * Controller buffering, the paper's baseline: a steering rule sends the
 * flow to the CPU port (a packet-in each), the controller keeps the frames,
 * and a release sends them back by packet-out. Same rule table, priority and
 * filters as a FlowBuf pause, so the two differ only in where packets wait.
 */
public final class ControllerBufferingManager implements ControllerBufferingService {

    /** Same priority as a FlowBuf pause rule (IntentManager.PAUSE_PRIORITY). */
    static final int PUNT_PRIORITY = 100;

    /** How long a released hold still takes packets punted before its rule went. */
    static final long STRAGGLER_WINDOW_NS = TimeUnit.SECONDS.toNanos(1);

    private final SteeringRuleWriter rules;
    private final PacketEmitter packets;
    private final LongSupplier nanoClock;
    private final AtomicLong ids = new AtomicLong();
    // Every hold still listed; released ones beyond the retention are forgotten.
    private final Map<Long, Hold> holds = new ConcurrentHashMap<>();
    private final Retention<Long> released;
    // The holds a packet-in is matched against: holding ones, and released
    // ones within their straggler window. Not the whole history.
    private final Map<Long, Hold> matched = new ConcurrentHashMap<>();
    /**
     * Turns of held flows (Guava striped locks keyed by device, in-port and
     * flow): a hold and its release are ordered, one flow is held once, and
     * different flows' rule writes run in parallel.
     */
    private final Striped<Lock> turns = Striped.lazyWeakLock(1024);

    /**
     * Creates the baseline.
     *
     * @param rules   writer of the punt rules
     * @param packets packet-out of released frames
     */
    public ControllerBufferingManager(SteeringRuleWriter rules, PacketEmitter packets) {
        this(rules, packets, Retention.DEFAULT_KEPT, System::nanoTime);
    }

    ControllerBufferingManager(SteeringRuleWriter rules, PacketEmitter packets,
                               int keptReleased, LongSupplier nanoClock) {
        this.rules = Objects.requireNonNull(rules);
        this.packets = Objects.requireNonNull(packets);
        this.released = new Retention<>(keptReleased);
        this.nanoClock = Objects.requireNonNull(nanoClock);
    }

    @Override
    public ControllerHold hold(DeviceId deviceId, PortNumber inPort, FlowFilter filter) {
        SteeringRule.requirePhysical(inPort, "inPort");
        FlowFilter flow = filter.atInPort(inPort).withoutInPort();
        return StripedTurns.inTurn(turns, List.of(deviceId, inPort, flow),
                                   () -> holdInTurn(deviceId, inPort, flow));
    }

    private ControllerHold holdInTurn(DeviceId deviceId, PortNumber inPort, FlowFilter flow) {
        forgetStragglerWindowsBefore(nanoClock.getAsLong() - STRAGGLER_WINDOW_NS);
        boolean held = matched.values().stream().anyMatch(
                h -> h.holding() && h.deviceId.equals(deviceId) && h.inPort.equals(inPort)
                        && h.filter.equals(flow));
        if (held) {
            throw FlowBufException.conflict("flow %s on %s/%s is already held", flow, deviceId,
                                            inPort);
        }
        SteeringRule punt = new SteeringRule(flow, false, inPort.toLong(),
                                             FlowBufP4Names.CPU_PORT, PUNT_PRIORITY);
        Hold hold = new Hold(ids.incrementAndGet(), deviceId, inPort, flow, punt);
        holds.put(hold.id, hold);
        matched.put(hold.id, hold);  // before the rule: the first punted packet finds it
        try {
            rules.install(deviceId, punt);
        } catch (FlowBufException e) {
            matched.remove(hold.id);
            holds.remove(hold.id);
            throw e;
        }
        return hold.snapshot();
    }

    @Override
    public ControllerHold release(long id, ConnectPoint out) {
        SteeringRule.requirePhysical(out.port(), "outPort");
        Hold hold = holds.get(id);
        if (hold == null) {
            throw FlowBufException.notFound("no controller hold %d", id);
        }
        return StripedTurns.inTurn(turns, List.of(hold.deviceId, hold.inPort, hold.filter),
                                   () -> releaseInTurn(hold, out));
    }

    private ControllerHold releaseInTurn(Hold hold, ConnectPoint out) {
        long id = hold.id;
        if (!hold.holding()) {
            throw FlowBufException.conflict("controller hold %d is already released", id);
        }
        hold.sendAll(out);
        rules.remove(hold.deviceId, hold.punt);
        hold.releaseTo(out, nanoClock.getAsLong());
        hold.sendAll(out);  // punted while the rule was being removed
        released.finished(id).forEach(holds::remove);
        return hold.snapshot();
    }

    @Override
    public Collection<ControllerHold> holds() {
        List<ControllerHold> all = new ArrayList<>();
        holds.values().forEach(h -> all.add(h.snapshot()));
        all.sort((a, b) -> Long.compare(a.id(), b.id()));
        return all;
    }

    @Override
    public boolean packetIn(DeviceId deviceId, PortNumber inPort, byte[] frame) {
        long arrivedNs = nanoClock.getAsLong();
        Optional<FrameFields> fields = FrameFields.of(frame);  // parsed once, not per hold
        if (fields.isEmpty()) {
            return false;
        }
        // A hold of the flow that is holding now comes first; a released one
        // takes only the stragglers punted before its rule was removed.
        forgetStragglerWindowsBefore(nanoClock.getAsLong() - STRAGGLER_WINDOW_NS);
        for (boolean holding : new boolean[]{true, false}) {
            for (Hold hold : matched.values()) {
                if (hold.holding() == holding
                        && hold.takes(deviceId, inPort, fields.get(), frame)) {
                    hold.spent(nanoClock.getAsLong() - arrivedNs);
                    return true;
                }
            }
        }
        return false;
    }

    private void forgetStragglerWindowsBefore(long ns) {
        matched.values().removeIf(h -> h.releasedBefore(ns));
    }

    /** One held flow: its frames in arrival order and its counters. */
    private final class Hold {
        private final long id;
        private final DeviceId deviceId;
        private final PortNumber inPort;
        private final FlowFilter filter;
        private final SteeringRule punt;
        private final Queue<byte[]> frames = new ArrayDeque<>();
        private ConnectPoint releasedTo;
        private long releasedAtNs;
        private long bytes;
        private long packetIns;
        private long packetOuts;
        private long packetInNanos;

        private Hold(long id, DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                     SteeringRule punt) {
            this.id = id;
            this.deviceId = deviceId;
            this.inPort = inPort;
            this.filter = filter;
            this.punt = punt;
        }

        synchronized boolean holding() {
            return releasedTo == null;
        }

        /** From now on a late packet-in goes straight out (nothing is kept, nothing lost). */
        synchronized void releaseTo(ConnectPoint out, long nowNs) {
            releasedTo = out;
            releasedAtNs = nowNs;
        }

        synchronized boolean releasedBefore(long ns) {
            return releasedTo != null && releasedAtNs - ns < 0;
        }

        boolean takes(DeviceId device, PortNumber port, FrameFields fields, byte[] frame) {
            if (!deviceId.equals(device) || !inPort.equals(port) || !fields.matches(filter)) {
                return false;
            }
            ConnectPoint straightOut;
            synchronized (this) {
                packetIns++;
                straightOut = releasedTo != null && frames.isEmpty() ? releasedTo : null;
                if (straightOut == null) {
                    frames.add(frame);
                    bytes += frame.length;
                } else {
                    packetOuts++;
                }
            }
            if (straightOut != null) {
                packets.emit(straightOut.deviceId(), straightOut.port(), frame);
            }
            return true;
        }

        synchronized void spent(long packetInNs) {
            packetInNanos += packetInNs;
        }

        void sendAll(ConnectPoint out) {
            while (true) {
                byte[] frame;
                synchronized (this) {
                    frame = frames.poll();
                    if (frame == null) {
                        return;
                    }
                    bytes -= frame.length;
                    packetOuts++;
                }
                packets.emit(out.deviceId(), out.port(), frame);
            }
        }

        synchronized ControllerHold snapshot() {
            return new ControllerHold(id, deviceId, inPort, filter,
                                      releasedTo != null ? ControllerHold.State.RELEASED
                                                         : ControllerHold.State.HOLDING,
                                      frames.size(), bytes, packetIns, packetOuts,
                                      packetInNanos);
        }
    }
}
