/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.LmmHandoff;

import java.util.Collection;
import java.util.Optional;

/**
 * What LMM keeps between the steps of its handoffs: the handoffs' records
 * and where each UE's downlink lives since its last handoff. In ONOS it is in
 * the cluster's distributed primitives ({@link DistributedLmmStore}), so that
 * another instance finds them when this one dies; in the embedded host in
 * memory ({@link InMemoryLmmStore}).
 */
interface LmmStore {

    /**
     * A handoff id no instance has given out.
     *
     * @return the id
     */
    long nextId();

    /**
     * Records a handoff (replacing its earlier record).
     *
     * @param handoff the record
     */
    void put(LmmHandoff handoff);

    /**
     * @param id a handoff id
     * @return its record, if kept
     */
    Optional<LmmHandoff> get(long id);

    /**
     * Records which instance runs a handoff (holds its marker watches).
     *
     * @param id   the handoff's id
     * @param node the instance's node id
     */
    void putRunner(long id, String node);

    /**
     * @param id a handoff id
     * @return the instance that runs it, if recorded
     */
    Optional<String> runner(long id);

    /**
     * Forgets a handoff (and its runner).
     *
     * @param id its id
     */
    void remove(long id);

    /**
     * @return every handoff kept, in no order
     */
    Collection<LmmHandoff> handoffs();

    /**
     * @param downlink a UE's downlink
     * @return the buffer it lives in since its last handoff, if any
     */
    Optional<Resident> resident(FlowFilter downlink);

    /**
     * Records where a downlink lives.
     *
     * @param downlink the UE's downlink
     * @param resident its buffer and intents
     */
    void putResident(FlowFilter downlink, Resident resident);

    /**
     * Forgets where a downlink lived (a handoff took it over).
     *
     * @param downlink the UE's downlink
     */
    void removeResident(FlowFilter downlink);
}
