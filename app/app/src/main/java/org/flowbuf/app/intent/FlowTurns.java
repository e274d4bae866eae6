/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import com.google.common.util.concurrent.Striped;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.app.task.StripedTurns;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Whose turn it is to change the intents of a flow on a device. A flow is
 * its filter without the in-port: the rules a pause and a resume of it
 * write, the buffer it is paused into and the check that refuses pausing it
 * into a second buffer all follow from (device, filter without in-port). So
 * intents of one flow are installed and withdrawn one at a time, in the
 * order they take their turn (a pause, then its resume), and intents of
 * different flows run in parallel, each with its own agent calls and
 * writes.
 *
 * <p>Turns are striped locks (Guava's {@link Striped}); a batch takes its
 * flows' turns together, in the stripes' order, so two batches never wait
 * for each other in a circle. Lock order: a flow's turn, then (in the
 * Buffer Service) a buffer's; the Buffer Service never calls back here.
 */
final class FlowTurns {

    /** Stripes: many more than flows change at once. */
    static final int STRIPES = 4096;

    private final Striped<Lock> flows = Striped.lazyWeakLock(STRIPES);

    /**
     * Runs a change of one flow's intents in its turn.
     *
     * @param deviceId device
     * @param filter   the flow (its in-port, if any, is ignored)
     * @param change   the change
     * @param <T>      what it returns
     * @return what the change returned
     */
    <T> T onFlow(DeviceId deviceId, FlowFilter filter, Supplier<T> change) {
        return onFlows(deviceId, List.of(filter), change);
    }

    /**
     * Runs a change of several flows' intents in their turns, taken together.
     *
     * @param deviceId device
     * @param filters  the flows
     * @param change   the change
     * @param <T>      what it returns
     * @return what the change returned
     */
    <T> T onFlows(DeviceId deviceId, Collection<FlowFilter> filters, Supplier<T> change) {
        List<Object> keys = new ArrayList<>();
        filters.forEach(f -> keys.add(List.of(deviceId, f.withoutInPort())));
        return StripedTurns.inTurns(flows, keys, change);
    }
}
