/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The merge buffers of the ordered flows (orderedSwitchover), one
 * {@link MergeBuffer} each. After a switch-over, one worker thread waits
 * for the end marker (at most the bound) and arms the hold for the new
 * backup, so that a digest never waits for a marker.
 */
final class OrderedMerges implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OrderedMerges.class);
    /** How long the end marker may take behind the old path's queued packets. */
    static final long DEFAULT_BOUND_MS = 500;
    /** How long removing a flow waits for its merge buffer's worker. */
    private static final long CLOSE_WAIT_MS = 5_000;

    private final BufferService buffers;
    private final FlowBufIntentService intents;
    private final Function<ConnectPoint, Optional<ConnectPoint>> peers;
    private final LongSupplier boundMs;
    private final Map<Long, MergeBuffer> merges = new ConcurrentHashMap<>();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "flowbuf-cc-merge");
        t.setDaemon(true);
        return t;
    });

    /**
     * Creates the merge buffers' service.
     *
     * @param buffers the Buffer Service (task level)
     * @param intents the intent level (pause)
     * @param peers   the far end of a link by its source port
     * @param boundMs how long a hold waits for its end marker, read at each
     *                switch-over; positive
     */
    OrderedMerges(BufferService buffers, FlowBufIntentService intents,
                  Function<ConnectPoint, Optional<ConnectPoint>> peers, LongSupplier boundMs) {
        this.buffers = buffers;
        this.intents = intents;
        this.peers = peers;
        this.boundMs = boundMs;
    }

    // The bound now; a configuration that says less than 1 ms gets the default.
    private long bound() {
        long ms = boundMs.getAsLong();
        if (ms <= 0) {
            LOG.warn("marker bound {} ms is not positive; {} ms instead", ms, DEFAULT_BOUND_MS);
            return DEFAULT_BOUND_MS;
        }
        return ms;
    }

    /**
     * The far end of each link, from a topology's links.
     *
     * @param links the links (both directions)
     * @return lookup by a link's source port
     */
    static Function<ConnectPoint, Optional<ConnectPoint>> peersOf(Supplier<List<Link>> links) {
        return out -> links.get().stream().filter(l -> l.src().equals(out)).map(Link::dst)
                .findFirst();
    }

    /**
     * Sets up a new ordered flow's merge buffer, armed for its backup.
     *
     * @param flowId the flow's id
     * @param layout its layout, with a backup
     * @return where its end markers go on the merge switch
     * @throws FlowBufException INVALID when the merge switch has no buffer agent,
     *                          or an agent's error; nothing stays made
     */
    CcSink open(long flowId, CcLayout layout) {
        DeviceId merge = layout.merge();
        if (!buffers.getDevices().contains(merge)) {
            throw FlowBufException.invalid("orderedSwitchover: the merge switch %s has no buffer "
                                                   + "agent (the flowbuf block of its netcfg)",
                                           merge);
        }
        CcPath backup = layout.backup().orElseThrow(() -> FlowBufException.invalid(
                "orderedSwitchover: the flow has no backup path"));
        MergeBuffer m = new MergeBuffer(layout.index(), layout.filter(), merge, buffers, intents);
        CcSink sink = m.open(inPort(backup, merge));
        merges.put(flowId, m);
        return sink;
    }

    /**
     * Takes over an ordered flow's merge buffer after the instance that ran
     * it died: rebuilt from its agent and re-armed for the flow's backup, on
     * the worker (a switch-over reported meanwhile is settled after it).
     *
     * @param flowId the flow
     * @param layout its layout now (ordered)
     * @return whether it was taken over (false: this instance runs it already)
     */
    boolean adopt(long flowId, CcLayout layout) {
        if (merges.containsKey(flowId)) {
            return false;
        }
        DeviceId merge = layout.merge();
        MergeBuffer m = new MergeBuffer(layout.index(), layout.filter(), merge, buffers, intents);
        Optional<PortNumber> backupIn = layout.backup().map(b -> inPort(b, merge));
        if (merges.putIfAbsent(flowId, m) != null) {
            return false;
        }
        worker.execute(() -> {
            try {
                m.adopt(backupIn, bound());
            } catch (FlowBufException e) {
                LOG.warn("flow {}: merge buffer not taken over: {}", flowId, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return true;
    }

    /**
     * After a switch-over of an ordered flow: on the worker, its marker
     * awaited (at most the bound; not at all when a later switch-over is
     * already queued: the flow has moved on, what is held goes now), then
     * the hold armed for the flow's backup as it is by then (a switch-over
     * that followed changed it).
     *
     * @param flowId the flow
     * @param next   its layout now
     */
    void switchedOver(long flowId, CcLayout next) {
        MergeBuffer m = merges.get(flowId);
        if (m == null) {
            return;
        }
        Optional<PortNumber> backupIn = next.backup().map(b -> inPort(b, next.merge()));
        m.switchedOver(backupIn);
        worker.execute(() -> {
            try {
                long bound = bound();
                boolean overtaken = m.takeSwitchOver();
                m.settle(overtaken ? 0 : bound);
                Optional<PortNumber> latest = m.latestBackupIn();
                if (latest.isPresent()) {
                    m.arm(latest.get(), bound);
                }
            } catch (FlowBufException e) {
                LOG.warn("flow {}: merge buffer not re-armed: {}", flowId, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Removes a flow's merge buffer, after what its worker has under way.
     *
     * @param flowId the flow
     */
    void close(long flowId) {
        MergeBuffer m = merges.remove(flowId);
        if (m == null) {
            return;
        }
        try {
            List<String> failures = worker.submit(m::close).get(CLOSE_WAIT_MS,
                                                                TimeUnit.MILLISECONDS);
            failures.forEach(f -> LOG.warn("flow {}: merge buffer: {}", flowId, f));
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("flow {}: merge buffer not removed: {}", flowId, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A flow's merge buffer now.
     *
     * @param flowId the flow
     * @return state, empty when the flow is not ordered
     */
    Optional<OrderedSwitchover> state(long flowId) {
        return Optional.ofNullable(merges.get(flowId)).map(MergeBuffer::state);
    }

    /**
     * The port a path enters the merge switch by: the far end of its
     * last link.
     */
    private PortNumber inPort(CcPath path, DeviceId merge) {
        List<CcHop> hops = path.hops();
        CcHop last = hops.get(hops.size() - 2);
        ConnectPoint out = new ConnectPoint(last.device(), last.outPort());
        return peers.apply(out).filter(in -> in.deviceId().equals(merge))
                .map(ConnectPoint::port)
                .orElseThrow(() -> FlowBufException.invalid(
                        "orderedSwitchover: no link from %s into the merge switch %s", out, merge));
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
