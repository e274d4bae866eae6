/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.Operation;

import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A buffer agent for concurrency tests: keeps what it holds (buffers,
 * vports, their modes and bindings), refuses what a real agent refuses (a
 * buffer or vport created twice, a vport bound twice, a change of something
 * it does not have) and applies a batch all or nothing. Every call first
 * takes a random time up to {@code maxDelayMicros} outside its state's lock,
 * as a network call would (between {@code minDelayMicros} and
 * {@code maxDelayMicros}), so calls of many threads overlap.
 */
public final class StatefulAgent implements BufferAgentClient {

    private final long minDelayMicros;
    private final long maxDelayMicros;
    private final Map<BufferId, VportId> buffers = new HashMap<>(); // bound vport, or null
    private final Map<VportId, VportMode> vports = new HashMap<>();
    private final Map<VportId, BufferId> boundTo = new HashMap<>();
    private final AtomicInteger callsInFlight = new AtomicInteger();
    private final AtomicInteger peakCalls = new AtomicInteger();
    private volatile long heldPackets;

    /**
     * Creates an agent with nothing in it.
     *
     * @param minDelayMicros shortest time a call takes before it is applied
     * @param maxDelayMicros longest time
     */
    public StatefulAgent(long minDelayMicros, long maxDelayMicros) {
        this.minDelayMicros = minDelayMicros;
        this.maxDelayMicros = maxDelayMicros;
    }

    /**
     * Makes every buffer report this many held packets while it does not
     * transmit (0 by default: empty); one that transmits has drained.
     *
     * @param packets occupancy every buffer reports
     */
    public void everyBufferHolds(long packets) {
        heldPackets = packets;
    }

    /**
     * What the agent holds: each buffer with its vport and that vport's mode.
     *
     * @return buffer id to "vport mode" (or "unbound")
     */
    public synchronized Map<BufferId, String> holdings() {
        Map<BufferId, String> out = new HashMap<>();
        buffers.forEach((id, vport) -> out.put(
                id, vport == null ? "unbound" : vport + " " + vports.get(vport)));
        return out;
    }

    @Override
    public void apply(List<AgentOperation> operations) {
        call(() -> {
            applyAll(operations);
            return null;
        });
    }

    private synchronized void applyAll(List<AgentOperation> operations) {
        // All or nothing: applied in place, each change journaled, and the
        // journal undone when one fails (a copy of the maps per call made
        // thousands of buffers cost quadratic time).
        Journal journal = new Journal();
        try {
            for (AgentOperation op : operations) {
                applyOne(op.toProto(), journal.of(buffers), journal.of(vports),
                         journal.of(boundTo));
            }
        } catch (RuntimeException e) {
            journal.undo();
            throw e;
        }
    }

    /** Changes made to maps, undone last first. */
    private static final class Journal {
        private final Deque<Runnable> undos = new ArrayDeque<>();

        <K, V> Map<K, V> of(Map<K, V> map) {
            return new AbstractMap<K, V>() {
                @Override
                public V get(Object key) {
                    return map.get(key);
                }

                @Override
                public boolean containsKey(Object key) {
                    return map.containsKey(key);
                }

                @Override
                public V put(K key, V value) {
                    remember(map, key);
                    return map.put(key, value);
                }

                @Override
                public V remove(Object key) {
                    @SuppressWarnings("unchecked") K k = (K) key;
                    remember(map, k);
                    return map.remove(key);
                }

                @Override
                public Set<Entry<K, V>> entrySet() {
                    return Collections.unmodifiableSet(map.entrySet());
                }
            };
        }

        private <K, V> void remember(Map<K, V> map, K key) {
            boolean had = map.containsKey(key);
            V before = map.get(key);
            undos.push(() -> {
                if (had) {
                    map.put(key, before);
                } else {
                    map.remove(key);
                }
            });
        }

        void undo() {
            while (!undos.isEmpty()) {
                undos.pop().run();
            }
        }
    }

    private static void applyOne(Operation op, Map<BufferId, VportId> b,
                                 Map<VportId, VportMode> v, Map<VportId, BufferId> bound) {
        switch (op.getOpCase()) {
            case CREATE_BUFFER: {
                BufferId id = BufferId.bufferId(op.getCreateBuffer().getBufferId());
                if (b.containsKey(id)) {
                    throw FlowBufException.conflict("agent: buffer %s exists", id);
                }
                b.put(id, null);
                break;
            }
            case CREATE_VPORT: {
                VportId id = VportId.vportId(op.getCreateVport().getVportId());
                if (v.containsKey(id)) {
                    throw FlowBufException.conflict("agent: vport %s exists", id);
                }
                v.put(id, ProtoConverter.fromProto(op.getCreateVport().getConfig().getMode()));
                break;
            }
            case BIND: {
                BufferId id = BufferId.bufferId(op.getBind().getBufferId());
                VportId vport = VportId.vportId(op.getBind().getVportId());
                if (!b.containsKey(id) || !v.containsKey(vport)) {
                    throw FlowBufException.notFound("agent: no %s or %s", id, vport);
                }
                if (bound.containsKey(vport) || b.get(id) != null) {
                    throw FlowBufException.conflict("agent: %s or %s already bound", id, vport);
                }
                b.put(id, vport);
                bound.put(vport, id);
                break;
            }
            case UNBIND: {
                BufferId id = BufferId.bufferId(op.getUnbind().getBufferId());
                VportId vport = VportId.vportId(op.getUnbind().getVportId());
                if (!id.equals(bound.get(vport))) {
                    throw FlowBufException.notFound("agent: %s is not bound to %s", id, vport);
                }
                b.put(id, null);
                bound.remove(vport);
                break;
            }
            case SET_VPORT_MODE: {
                VportId id = VportId.vportId(op.getSetVportMode().getVportId());
                if (!v.containsKey(id)) {
                    throw FlowBufException.notFound("agent: no vport %s", id);
                }
                v.put(id, ProtoConverter.fromProto(op.getSetVportMode().getMode()));
                break;
            }
            case REMOVE_VPORT: {
                VportId id = VportId.vportId(op.getRemoveVport().getVportId());
                if (v.remove(id) == null || bound.containsKey(id)) {
                    throw FlowBufException.notFound("agent: no free vport %s", id);
                }
                break;
            }
            case REMOVE_BUFFER: {
                BufferId id = BufferId.bufferId(op.getRemoveBuffer().getBufferId());
                if (!b.containsKey(id) || b.get(id) != null) {
                    throw FlowBufException.notFound("agent: no unbound buffer %s", id);
                }
                b.remove(id);
                break;
            }
            default:
                throw FlowBufException.invalid("agent: unsupported %s", op.getOpCase());
        }
    }

    @Override
    public long occupancyPackets(BufferId id) {
        return call(() -> {
            synchronized (this) {
                if (!buffers.containsKey(id)) {
                    throw FlowBufException.notFound("agent: no buffer %s", id);
                }
                VportMode mode = vports.get(buffers.get(id));
                boolean draining = mode == VportMode.TX || mode == VportMode.RX_TX;
                return draining ? 0L : heldPackets;
            }
        });
    }

    @Override
    public BufferStatistics statistics(BufferId id) {
        throw new UnsupportedOperationException();
    }

    @Override
    public synchronized List<AgentBuffer> buffers() {
        List<AgentBuffer> out = new ArrayList<>();
        buffers.forEach((id, vport) -> out.add(new AgentBuffer(
                id, BufferSpec.defaults(), vport, vport == null ? VportMode.NONE : vports.get(vport),
                0)));
        return out;
    }

    @Override
    public Optional<Long> purgeUpTo(BufferId id, PacketId packetId, boolean inclusive) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Long> purgeToSyncPoint(BufferId id, PacketId packetId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public MarkerWatch watchMarker(BufferId id, MarkerPattern pattern, Runnable onSeen) {
        throw new UnsupportedOperationException();
    }

    @Override
    public TriggerReply armTrigger(BufferId trigger, Map<VportId, VportMode> modes,
                                   Optional<BufferId> purgeToReport) {
        return new TriggerReply(false, Optional.empty());
    }

    @Override
    public void checkReachable() {
    }

    @Override
    public void reconnectNow() {
    }

    @Override
    public void close() {
    }

    private <T> T call(Supplier<T> body) {
        peakCalls.accumulateAndGet(callsInFlight.incrementAndGet(), Math::max);
        try {
            pause(minDelayMicros, maxDelayMicros);
            return body.get();
        } finally {
            callsInFlight.decrementAndGet();
        }
    }

    /**
     * The most calls that were in flight at once: 1 when every caller
     * waited for the one before (a lock held across the call).
     *
     * @return peak of concurrent calls
     */
    public int peakConcurrentCalls() {
        return peakCalls.get();
    }

    /**
     * Sleeps a random time between two bounds, as a call over the network takes.
     *
     * @param minMicros shortest
     * @param maxMicros longest
     */
    public static void pause(long minMicros, long maxMicros) {
        if (maxMicros <= 0) {
            return;
        }
        long micros = minMicros + ThreadLocalRandom.current().nextLong(maxMicros - minMicros + 1);
        try {
            Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
