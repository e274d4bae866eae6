/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import java.util.Collection;
import java.util.Optional;

/**
 * What congestion avoidance keeps of its flows: their records, the flow
 * indexes they hold (the switches' register cells, one per flow on every
 * switch of its paths) and the ids to give out. In ONOS it is in the
 * cluster's distributed primitives ({@link DistributedCcFlowStore}), so that
 * the instance that takes over a flow's source switch, or ONOS restarted,
 * finds every flow and its paths; in the embedded host in memory
 * ({@link InMemoryCcFlowStore}).
 */
public interface CcFlowStore {

    /**
     * An id no instance has given out.
     *
     * @return the id (1, 2, ...)
     */
    long nextId();

    /**
     * Claims a flow index for a flow, unless another holds it.
     *
     * @param index the index
     * @param flow  the flow's id
     * @return whether it was free (and is the flow's now)
     */
    boolean claimIndex(int index, long flow);

    /**
     * Frees a flow index.
     *
     * @param index the index
     */
    void releaseIndex(int index);

    /**
     * Keeps a flow's record (replacing its earlier one).
     *
     * @param record the record
     */
    void put(CcRecord record);

    /**
     * @param id a flow id
     * @return its record, if kept
     */
    Optional<CcRecord> get(long id);

    /**
     * Forgets a flow's record (not its index: {@link #releaseIndex}).
     *
     * @param id its id
     */
    void remove(long id);

    /**
     * @return every record kept, in no order
     */
    Collection<CcRecord> values();
}
