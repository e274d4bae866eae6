/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.store;

import java.util.Collection;
import java.util.Optional;

/**
 * An application's records by numeric id (an NFV migration, an FMM
 * session), with the ids to give out. In ONOS they are in the cluster's
 * distributed primitives ({@link DistributedIdRecords}), so that another
 * instance finds them when this one dies; in the embedded host in memory
 * ({@link InMemoryIdRecords}).
 *
 * @param <V> the record
 */
public interface IdRecords<V> {

    /**
     * An id no instance has given out.
     *
     * @return the id (1, 2, ...)
     */
    long nextId();

    /**
     * Keeps a record (replacing the id's earlier one).
     *
     * @param id     its id
     * @param record the record
     */
    void put(long id, V record);

    /**
     * @param id an id
     * @return its record, if kept
     */
    Optional<V> get(long id);

    /**
     * Forgets a record.
     *
     * @param id its id
     */
    void remove(long id);

    /**
     * @return every record kept, in no order
     */
    Collection<V> values();
}
