/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf.hybrid;

import org.onlab.packet.Ip4Address;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The fast path's sessions the controller may use: a UE holds one from its
 * promotion's start to its demotion's end. Short critical sections only
 * (no southbound call under its lock).
 */
final class FastBudget {

    private final Set<Ip4Address> holders = new HashSet<>();
    private int size;

    FastBudget(int size) {
        this.size = size;
    }

    synchronized void resize(int newSize) {
        size = newSize;
    }

    /**
     * Takes a session for a UE when one is free.
     *
     * @param ue the UE
     * @return true when it holds one now (also when it held one already)
     */
    synchronized boolean take(Ip4Address ue) {
        if (holders.contains(ue)) {
            return true;
        }
        if (holders.size() >= size) {
            return false;
        }
        holders.add(ue);
        return true;
    }

    synchronized void give(Ip4Address ue) {
        holders.remove(ue);
    }

    synchronized int used() {
        return holders.size();
    }

    synchronized boolean over() {
        return holders.size() > size;
    }

    /**
     * The holder to demote first: the coldest of those that can move now.
     *
     * @param rateOf a holder's rate over the last window, empty when it cannot move now
     * @return the coldest movable holder
     */
    synchronized Optional<Ip4Address> coldest(Function<Ip4Address, Optional<Long>> rateOf) {
        Ip4Address best = null;
        long bestRate = Long.MAX_VALUE;
        for (Ip4Address ue : holders) {
            Optional<Long> rate = rateOf.apply(ue);
            // Ties go to the lowest address, so that the choice is reproducible.
            if (rate.isPresent() && (rate.get() < bestRate
                    || rate.get() == bestRate && ue.compareTo(best) < 0)) {
                best = ue;
                bestRate = rate.get();
            }
        }
        return Optional.ofNullable(best);
    }
}
